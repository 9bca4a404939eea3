import { describe, expect, it } from 'vitest';
import { TiersEnvelopeSchema } from '../../../protocol/tiers/envelope.ts';
import { OutcomePayloadSchema } from '../../../protocol/tiers/payloads.ts';
import { freshUser as fresh } from '../http-host/fresh-user.ts';
import type { HttpHost } from '../http-host/http-host.ts';
import { describeTiersClarificationHttp } from './tiers-clarification-http-suite.ts';
import { artifactOf, example, settledTask, submitTask, treeNodes } from './tiers-e2e.ts';

/*
 * The tiers routes over HTTP, written once and run against each host: the embedded runtime
 * (tests/e2e/tiers/tiers-http.test.ts) and `npm run start:cluster` (tests/cluster/tiers-http.test.ts).
 * Nothing here swaps a specialist, restarts the runtime or drives a clock, so it runs on a real
 * process group as well. Each test has users (and external message ids) of its own: a host may
 * serve many tests.
 */

/**
 * Declares the tiers HTTP tests (tasks, external messages, clarifications) against the host
 * `host()` answers when a test runs (the test file starts and stops it).
 *
 * @example
 * let host: HttpHost;
 * beforeAll(async () => (host = await startEmbeddedHost()));
 * afterAll(() => host.stop());
 * describeTiersHttp(() => host);
 */
export function describeTiersHttp(host: () => HttpHost) {
  /** The content of an artifact, inline or read from the task's Beads by its `content_ref`. */
  async function contentOf(user: string, taskId: string, artifact: any): Promise<string> {
    if (artifact.inline_content !== null) return artifact.inline_content;
    const key = String(artifact.content_ref).replace(/^beads:/, '');
    const { body } = await host().call(user, 'GET', `/tiers/tasks/${taskId}/beads?prefix=${encodeURIComponent(key)}`);
    const entry = body.entries.find((e: { key: string }) => e.key === key);
    return typeof entry.value === 'string' ? entry.value : JSON.stringify(entry.value);
  }

  /** The README's external message under an id of its own (ids are one namespace across users). */
  async function externalMessage(changes: Record<string, unknown> = {}) {
    return { ...(await example('tiers-message.json')), id: fresh('ext-msg'), ...changes };
  }

  describe('a tiers task over HTTP', () => {
    it('solves a known family (binary search): success, a code artifact that passes, a test_result counted by running the tests', async () => {
      const ada = fresh('ada');
      const body = await example('tiers-task.json');
      const taskId = await submitTask(host(), ada, body);
      const { events, view } = await settledTask(host(), ada, taskId);
      expect(events.at(-1)).toEqual({ event: 'settled', data: { task_id: taskId, status: 'success' } });
      expect(view.status).toBe('success');
      const outcome = OutcomePayloadSchema.parse(view.outcome);
      expect(outcome.status).toBe('success');
      const code = await contentOf(ada, taskId, artifactOf(outcome, 'code'));
      expect(artifactOf(outcome, 'code').metadata.language).toBe('javascript');
      // The code really is a binary search: it runs here on an input of its own.
      const search = new Function(`${code}; return search;`)() as (nums: number[], target: number) => number;
      expect(search([2, 4, 6, 8, 10, 12, 14], 12)).toBe(5);
      expect(search([2, 4, 6], 5)).toBe(-1);
      const testResult = artifactOf(outcome, 'test_result');
      const total = body.problem.test_cases.length;
      expect(testResult.metadata).toMatchObject({ passed: total, failed: 0 });
      expect(await contentOf(ada, taskId, testResult)).toContain(`${total}/${total}`);
    }, 60_000);

    it('counts a wrong expected value as a failed test: the counts come from running, not from the request', async () => {
      const ada = fresh('ada');
      const body = await example('tiers-task.json');
      // search([-1,0,3,5,9,12], 9) is 4: expecting 3 can only fail when the tests really run.
      body.problem.test_cases[0].expected = 3;
      const taskId = await submitTask(host(), ada, body);
      const { view } = await settledTask(host(), ada, taskId);
      expect(view.status).not.toBe('success');
      const messages = (await host().call(ada, 'GET', `/tiers/tasks/${taskId}/messages`)).body.messages as any[];
      const solves = messages.filter((m) => m.payload.task_type === 'execute_code').map((m) => m.id);
      expect(solves.length).toBeGreaterThan(0);
      for (const id of solves) {
        const answer = messages.find((m) => m.correlation_id === id && m.payload.status !== undefined);
        // A binary search passes the four right cases and fails the wrong one, every time it runs.
        expect(artifactOf(answer.payload, 'test_result').metadata).toMatchObject({ passed: 4, failed: 1 });
      }
    }, 60_000);

    it('ends an unknown problem failed with unsupported_problem, not recoverable', async () => {
      const ada = fresh('ada');
      const taskId = await submitTask(host(), ada, await example('tiers-task-unknown.json'));
      const { view } = await settledTask(host(), ada, taskId);
      expect(view.status).toBe('failed');
      expect(view.outcome).toMatchObject({ status: 'failed', error_type: 'unsupported_problem', recoverable: false });
      const messages = (await host().call(ada, 'GET', `/tiers/tasks/${taskId}/messages`)).body.messages as any[];
      const solves = messages.filter((m) => m.payload.task_type === 'execute_code');
      // Not recoverable, so not retried: one attempt, answered unsupported_problem.
      expect(solves).toHaveLength(1);
      const answer = messages.find((m) => m.correlation_id === solves[0].id && m.payload.status !== undefined);
      expect(answer.payload).toMatchObject({ status: 'failed', error_type: 'unsupported_problem', recoverable: false });
      expect(view.outcome.error_detail).toContain('No known family');
    }, 60_000);

    it('shows the four tiers at work: every message a spec envelope in journal order, the tree, and the Beads scopes', async () => {
      const ada = fresh('ada');
      const taskId = await submitTask(host(), ada, await example('tiers-task.json'));
      const { events, view } = await settledTask(host(), ada, taskId);
      const messages = (await host().call(ada, 'GET', `/tiers/tasks/${taskId}/messages`)).body.messages as unknown[];
      for (const message of messages) TiersEnvelopeSchema.parse(message);
      const ids = messages.map((m: any) => m.id);
      expect(new Set(ids).size).toBe(ids.length);
      const edges = new Set(messages.map((m: any) => `${m.source_tier}->${m.target_tier}`));
      for (const edge of [
        'PROGRESS_MONITOR->ABSTRACT_ARCHITECT',
        'ABSTRACT_ARCHITECT->ROUTING_DISPATCHER',
        'ROUTING_DISPATCHER->SPECIALIZED_FLEET',
        'SPECIALIZED_FLEET->ROUTING_DISPATCHER',
        'ROUTING_DISPATCHER->ABSTRACT_ARCHITECT',
        'ABSTRACT_ARCHITECT->PROGRESS_MONITOR',
      ])
        expect(edges).toContain(edge);
      // The stream sent the same envelopes, in the same order.
      expect(events.filter((e) => e.event === 'message').map((e) => e.data.id)).toEqual(ids);
      const nodes = treeNodes(view.tree);
      expect(view.tree.map((root: any) => root.target_tier)).toContain('ABSTRACT_ARCHITECT');
      expect(new Set(nodes.map((n) => n.specialist).filter(Boolean))).toEqual(
        new Set(['js-solver', 'test-designer', 'reviewer']),
      );
      for (const node of nodes) expect(ids).toContain(node.message_id);
      const keys = (await host().call(ada, 'GET', `/tiers/tasks/${taskId}/beads`)).body.entries.map((e: any) => e.key);
      for (const key of ['task/current-objective', 'task/constraints', 'routing/task-graph', 'routing/assignments'])
        expect(keys).toContain(key);
      expect(keys.some((key: string) => key.startsWith('execution/outputs/'))).toBe(true);
      expect(keys.some((key: string) => key.startsWith('execution/logs/'))).toBe(true);
    }, 60_000);

    it("lists the user's tasks newest first, and answers 404 for another user's", async () => {
      const [ada, bob] = [fresh('ada'), fresh('bob')];
      const first = await submitTask(host(), ada, await example('tiers-task-unknown.json'));
      const second = await submitTask(host(), ada, await example('tiers-task-unknown.json'));
      await settledTask(host(), ada, first);
      await settledTask(host(), ada, second);
      const { body } = await host().call(ada, 'GET', '/tiers/tasks');
      expect(body.tasks.map((t: any) => t.task_id)).toEqual([second, first]);
      expect((await host().call(bob, 'GET', '/tiers/tasks')).body.tasks).toEqual([]);
      for (const path of ['', '/messages', '/beads', '/events?until=settled'])
        expect((await host().call(bob, 'GET', `/tiers/tasks/${first}${path}`)).status).toBe(404);
      const python = await example('tiers-task.json');
      python.problem.language = 'python';
      const refused = await host().call(ada, 'POST', '/tiers/tasks', python);
      expect(refused.status).toBe(400);
      expect(refused.body.error.issues.map((i: any) => i.path)).toEqual(['problem.language']);
    }, 60_000);
  });

  describe('POST /tiers/messages (an external Progress Monitor)', () => {
    it('refuses a 2.0.0 message with 400 version_not_supported naming the supported major, and runs nothing', async () => {
      const ada = fresh('ada');
      const answer = await host().call(ada, 'POST', '/tiers/messages', await example('tiers-message-v2.json'));
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('version_not_supported');
      expect(answer.body.error.message).toMatch(/\b1\b/);
      expect((await host().call(ada, 'GET', '/tiers/tasks')).body.tasks).toEqual([]);
    });

    it('accepts a newer minor with unknown fields, and refuses an invalid envelope with 400 naming the field', async () => {
      const ada = fresh('ada');
      const newer = await externalMessage({ version: '1.7.0', trace: { hop: 1 } });
      const accepted = await host().call(ada, 'POST', '/tiers/messages', newer);
      expect(accepted.status).toBe(202);
      expect(accepted.body).toEqual({ task_id: expect.any(String), message_id: newer.id });
      await settledTask(host(), ada, accepted.body.task_id);
      const broken = await externalMessage({ timestamp: 'yesterday' });
      const refused = await host().call(ada, 'POST', '/tiers/messages', broken);
      expect(refused.status).toBe(400);
      expect(refused.body.error.issues.map((i: any) => i.path)).toContain('timestamp');
    }, 60_000);

    // Message ids are one namespace (the tiers' routing and dedup key on them): another user's id is
    // refused, never joined to the first user's task, and the first user's task is untouched.
    it("refuses another user's message id with 409 message_id_taken, leaving the first task alone", async () => {
      const [ada, bob] = [fresh('ada'), fresh('bob')];
      const message = await externalMessage();
      const first = await host().call(ada, 'POST', '/tiers/messages', message);
      expect(first.status).toBe(202);
      const taken = await host().call(bob, 'POST', '/tiers/messages', message);
      expect([taken.status, taken.body.error.code]).toEqual([409, 'message_id_taken']);
      expect((await host().call(bob, 'GET', '/tiers/tasks')).body.tasks).toEqual([]);
      expect((await host().call(bob, 'GET', `/tiers/tasks/${first.body.task_id}`)).status).toBe(404);
      await settledTask(host(), ada, first.body.task_id);
      const again = await host().call(ada, 'POST', '/tiers/messages', message);
      expect([again.status, again.body]).toEqual([202, first.body]);
    }, 60_000);
  });

  describeTiersClarificationHttp(host);
}
