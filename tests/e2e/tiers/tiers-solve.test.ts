import { afterEach, describe, expect, it } from 'vitest';
import { TiersEnvelopeSchema } from '../../../protocol/tiers/envelope.ts';
import { OutcomePayloadSchema } from '../../../protocol/tiers/payloads.ts';
import { startRuntime } from '../../support/runtime-harness.ts';
import {
  artifactOf,
  example,
  settledTask,
  submitTask,
  treeNodes,
  type TiersRuntime,
} from '../../support/tiers/tiers-e2e.ts';

const runtimes: TiersRuntime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((rt) => rt.stop()));
});
async function runtime() {
  const rt = await startRuntime();
  runtimes.push(rt);
  return rt;
}

/** The content of an artifact, inline or read from the task's Beads by its `content_ref`. */
async function contentOf(rt: TiersRuntime, taskId: string, artifact: any): Promise<string> {
  if (artifact.inline_content !== null) return artifact.inline_content;
  const key = String(artifact.content_ref).replace(/^beads:/, '');
  const { body } = await rt.call('ada', 'GET', `/tiers/tasks/${taskId}/beads?prefix=${encodeURIComponent(key)}`);
  const entry = body.entries.find((e: { key: string }) => e.key === key);
  return typeof entry.value === 'string' ? entry.value : JSON.stringify(entry.value);
}

describe('a tiers task over HTTP', () => {
  it('solves a known family (binary search): success, a code artifact that passes, a test_result counted by running the tests', async () => {
    const rt = await runtime();
    const body = await example('tiers-task.json');
    const taskId = await submitTask(rt, 'ada', body);
    const { events, view } = await settledTask(rt, 'ada', taskId);
    expect(events.at(-1)).toEqual({ event: 'settled', data: { task_id: taskId, status: 'success' } });
    expect(view.status).toBe('success');
    const outcome = OutcomePayloadSchema.parse(view.outcome);
    expect(outcome.status).toBe('success');
    const code = await contentOf(rt, taskId, artifactOf(outcome, 'code'));
    expect(artifactOf(outcome, 'code').metadata.language).toBe('javascript');
    // The code really is a binary search: it runs here on an input of its own.
    const search = new Function(`${code}; return search;`)() as (nums: number[], target: number) => number;
    expect(search([2, 4, 6, 8, 10, 12, 14], 12)).toBe(5);
    expect(search([2, 4, 6], 5)).toBe(-1);
    const testResult = artifactOf(outcome, 'test_result');
    const total = body.problem.test_cases.length;
    expect(testResult.metadata).toMatchObject({ passed: total, failed: 0 });
    expect(await contentOf(rt, taskId, testResult)).toContain(`${total}/${total}`);
  }, 60_000);

  it('counts a wrong expected value as a failed test: the counts come from running, not from the request', async () => {
    const rt = await runtime();
    const body = await example('tiers-task.json');
    // search([-1,0,3,5,9,12], 9) is 4: expecting 3 can only fail when the tests really run.
    body.problem.test_cases[0].expected = 3;
    const taskId = await submitTask(rt, 'ada', body);
    const { view } = await settledTask(rt, 'ada', taskId);
    expect(view.status).not.toBe('success');
    const messages = (await rt.call('ada', 'GET', `/tiers/tasks/${taskId}/messages`)).body.messages as any[];
    const solves = messages.filter((m) => m.payload.task_type === 'execute_code').map((m) => m.id);
    expect(solves.length).toBeGreaterThan(0);
    for (const id of solves) {
      const answer = messages.find((m) => m.correlation_id === id && m.payload.status !== undefined);
      // A binary search passes the four right cases and fails the wrong one, every time it runs.
      expect(artifactOf(answer.payload, 'test_result').metadata).toMatchObject({ passed: 4, failed: 1 });
    }
  }, 60_000);

  it('ends an unknown problem failed with unsupported_problem, not recoverable', async () => {
    const rt = await runtime();
    const taskId = await submitTask(rt, 'ada', await example('tiers-task-unknown.json'));
    const { view } = await settledTask(rt, 'ada', taskId);
    expect(view.status).toBe('failed');
    expect(view.outcome).toMatchObject({ status: 'failed', error_type: 'unsupported_problem', recoverable: false });
    const messages = (await rt.call('ada', 'GET', `/tiers/tasks/${taskId}/messages`)).body.messages as any[];
    const solves = messages.filter((m) => m.payload.task_type === 'execute_code');
    // Not recoverable, so not retried: one attempt, answered unsupported_problem.
    expect(solves).toHaveLength(1);
    const answer = messages.find((m) => m.correlation_id === solves[0].id && m.payload.status !== undefined);
    expect(answer.payload).toMatchObject({ status: 'failed', error_type: 'unsupported_problem', recoverable: false });
    expect(view.outcome.error_detail).toContain('No known family');
  }, 60_000);

  it('shows the four tiers at work: every message a spec envelope in journal order, the tree, and the Beads scopes', async () => {
    const rt = await runtime();
    const taskId = await submitTask(rt, 'ada', await example('tiers-task.json'));
    const { events, view } = await settledTask(rt, 'ada', taskId);
    const messages = (await rt.call('ada', 'GET', `/tiers/tasks/${taskId}/messages`)).body.messages as unknown[];
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
    const keys = (await rt.call('ada', 'GET', `/tiers/tasks/${taskId}/beads`)).body.entries.map((e: any) => e.key);
    for (const key of ['task/current-objective', 'task/constraints', 'routing/task-graph', 'routing/assignments'])
      expect(keys).toContain(key);
    expect(keys.some((key: string) => key.startsWith('execution/outputs/'))).toBe(true);
    expect(keys.some((key: string) => key.startsWith('execution/logs/'))).toBe(true);
  }, 60_000);

  it("lists the user's tasks newest first, and answers 404 for another user's", async () => {
    const rt = await runtime();
    const first = await submitTask(rt, 'ada', await example('tiers-task-unknown.json'));
    const second = await submitTask(rt, 'ada', await example('tiers-task-unknown.json'));
    await settledTask(rt, 'ada', first);
    await settledTask(rt, 'ada', second);
    const { body } = await rt.call('ada', 'GET', '/tiers/tasks');
    expect(body.tasks.map((t: any) => t.task_id)).toEqual([second, first]);
    expect((await rt.call('bob', 'GET', '/tiers/tasks')).body.tasks).toEqual([]);
    for (const path of ['', '/messages', '/beads', '/events?until=settled'])
      expect((await rt.call('bob', 'GET', `/tiers/tasks/${first}${path}`)).status).toBe(404);
    const python = await example('tiers-task.json');
    python.problem.language = 'python';
    const refused = await rt.call('ada', 'POST', '/tiers/tasks', python);
    expect(refused.status).toBe(400);
    expect(refused.body.error.issues.map((i: any) => i.path)).toEqual(['problem.language']);
  }, 60_000);
});
