import { describe, expect, it } from 'vitest';
import { freshUser as fresh } from '../http-host/fresh-user.ts';
import type { HttpHost } from '../http-host/http-host.ts';
import { example, settledTask, submitTask, treeNodes } from './tiers-e2e.ts';

/*
 * The tiers' clarifications over HTTP, part of describeTiersHttp (tiers-http-suite.ts): a question
 * for the user and its answer, an answer sent together with a cancel, and a question a higher tier
 * answers itself. Nothing here swaps a specialist or restarts the runtime; each test has users of its own.
 */

/** The README's binary search with no complexity bound stated anywhere (statement and constraints). */
async function unboundedTask(constraints: string[]) {
  const body = await example('tiers-task.json');
  body.problem.statement = body.problem.statement.replace(' The algorithm must run in O(log n) time.', '');
  body.constraints = constraints;
  return body;
}

const questions = (messages: any[], from: string) =>
  messages.filter((m) => m.source_tier === from && m.payload.status === 'needs_clarification');

/**
 * Declares the tiers' clarification tests against the host `host()` answers when a test runs;
 * `describeTiersHttp` declares them with the rest.
 *
 * @example
 * describeTiersClarificationHttp(() => host);
 */
export function describeTiersClarificationHttp(host: () => HttpHost) {
  /** Runs a task to its end as a user of its own: its view, messages and both clarification records. */
  async function run(body: unknown) {
    const ada = fresh('ada');
    const taskId = await submitTask(host(), ada, body);
    const { view } = await settledTask(host(), ada, taskId);
    const messages = (await host().call(ada, 'GET', `/tiers/tasks/${taskId}/messages`)).body.messages as any[];
    const beads = (await host().call(ada, 'GET', `/tiers/tasks/${taskId}/beads`)).body.entries as any[];
    const records = (key: string) => beads.find((e) => e.key === key)?.value ?? [];
    return { view, messages, dispatcher: records('routing/clarifications'), architect: records('task/clarifications') };
  }

  describe('a tiers task with contradictory tests', () => {
    it('waits for the user with the question, takes the answer over HTTP, and resumes with the same correlation', async () => {
      const ada = fresh('ada');
      const taskId = await submitTask(host(), ada, await example('tiers-task-ambiguous.json'));
      const waiting = await settledTask(host(), ada, taskId);
      // Waiting for the user counts as settled: the stream closed on it.
      expect(waiting.events.at(-1)).toEqual({
        event: 'settled',
        data: { task_id: taskId, status: 'needs_clarification' },
      });
      expect(waiting.view.status).toBe('needs_clarification');
      expect(waiting.view.waiting_for_user.question).toMatch(/expect/i);
      expect(waiting.view.outcome).toMatchObject({ status: 'needs_clarification', error_type: 'ambiguous_request' });
      // It was not guessed: no tier below the Monitor ended with a success.
      expect(treeNodes(waiting.view.tree).filter((node) => node.status === 'success')).toEqual([]);

      const answered = await host().call(
        ada,
        'POST',
        `/tiers/tasks/${taskId}/clarification`,
        await example('tiers-clarification.json'),
      );
      expect(answered.status).toBe(202);
      const resumed = await settledTask(host(), ada, taskId);
      // The answer names 1: the case that agrees is kept, the contradicting one dropped, and it is solved.
      expect([resumed.view.status, resumed.view.outcome?.error_detail]).toEqual(['success', null]);
      const kept = (await host().call(ada, 'GET', `/tiers/tasks/${taskId}/beads?prefix=task/test-cases`)).body;
      expect(JSON.stringify(kept)).toContain('"expected":1');
      expect(JSON.stringify(kept)).not.toContain('"expected":2');
      const roots = resumed.view.tree.filter((root: any) => root.source_tier === 'PROGRESS_MONITOR');
      expect(roots.length).toBe(2);
      expect(roots[0].status).toBe('needs_clarification');
      const messages = (await host().call(ada, 'GET', `/tiers/tasks/${taskId}/messages`)).body.messages as any[];
      const rootMessages = roots.map((root: any) => messages.find((m) => m.id === root.message_id));
      expect(rootMessages[0].correlation_id).toBeNull();
      expect(rootMessages[1].correlation_id).toBe(rootMessages[0].id);
      expect(JSON.stringify(rootMessages[1].payload.task_data)).toContain('the answer is 1');
    }, 60_000);

    it('ends failed (clarification_unresolved) when the answer resolves nothing, never asking the same question twice', async () => {
      const ada = fresh('ada');
      const taskId = await submitTask(host(), ada, await example('tiers-task-ambiguous.json'));
      const waiting = await settledTask(host(), ada, taskId);
      const question = waiting.view.waiting_for_user.question;
      const answered = await host().call(ada, 'POST', `/tiers/tasks/${taskId}/clarification`, {
        answer: 'I am not sure.',
      });
      expect(answered.status).toBe(202);
      const ended = await settledTask(host(), ada, taskId);
      expect(ended.view.status).toBe('failed');
      expect(ended.view.waiting_for_user).toBeNull();
      expect(ended.view.outcome).toMatchObject({ status: 'failed', error_type: 'clarification_unresolved' });
      expect(ended.view.outcome.error_detail).toContain(question);
      const again = await host().call(ada, 'POST', `/tiers/tasks/${taskId}/clarification`, { answer: '1' });
      expect(again.status).toBe(409);
    }, 60_000);

    it('answers 409 to a clarification of a task that waits for none', async () => {
      const [ada, bob] = [fresh('ada'), fresh('bob')];
      const taskId = await submitTask(host(), ada, await example('tiers-task-unknown.json'));
      await settledTask(host(), ada, taskId);
      const answer = await host().call(ada, 'POST', `/tiers/tasks/${taskId}/clarification`, { answer: 'whatever' });
      expect(answer.status).toBe(409);
      expect(answer.body.error.code).toBe('not_waiting_for_clarification');
      expect((await host().call(bob, 'POST', `/tiers/tasks/${taskId}/clarification`, { answer: 'x' })).status).toBe(
        404,
      );
    }, 60_000);
  });

  describe('cancelling a tiers task', () => {
    it('an answer and a cancel sent together on a waiting task: one after the other, and the task ends cancelled', async () => {
      const ada = fresh('ada');
      const taskId = await submitTask(host(), ada, await example('tiers-task-ambiguous.json'));
      expect((await settledTask(host(), ada, taskId)).view.status).toBe('needs_clarification');
      const [answer, cancel] = await Promise.all([
        host().call(ada, 'POST', `/tiers/tasks/${taskId}/clarification`, await example('tiers-clarification.json')),
        host().call(ada, 'POST', `/tiers/tasks/${taskId}/cancel`, await example('tiers-cancel.json')),
      ]);
      expect([answer.status, cancel.status]).toEqual([202, 202]);
      const { events, view } = await settledTask(host(), ada, taskId);
      expect(events.at(-1)).toEqual({ event: 'settled', data: { task_id: taskId, status: 'cancelled' } });
      expect(view.status).toBe('cancelled');
    }, 60_000);
  });

  describe('a tiers task whose reviewer asks a question a higher tier can answer', () => {
    it('ends success without the user: the Architect answers the real reviewer from the recognised family, once', async () => {
      const { view, messages, dispatcher, architect } = await run(await unboundedTask(['Return -1 if not found']));
      expect(view.status).toBe('success');
      expect(view.waiting_for_user).toBeNull();
      const [question] = questions(messages, 'SPECIALIZED_FLEET');
      expect(question.payload).toMatchObject({ error_type: 'missing_complexity_bound', recoverable: true });
      expect(dispatcher).toEqual([]);
      expect(architect).toHaveLength(1);
      expect(architect[0]).toMatchObject({ rule: 'architect-family-bound', subtask: 'review' });
      const plans = messages.filter((m) => m.target_tier === 'ROUTING_DISPATCHER' && m.payload.task_type);
      expect(plans.map((m) => m.id)).toEqual([expect.any(String), architect[0].revision_id]);
      expect(plans[1].correlation_id).toBe(plans[0].correlation_id);
      // The revised review really timed the solution against the answer.
      const review = messages.find(
        (m) => m.payload.status === 'success' && m.payload.artifacts?.[0]?.artifact_type === 'complexity_review',
      );
      expect(review.payload.artifacts[0].metadata).toMatchObject({ claimed: 'O(log n)', verdict: 'holds' });
      expect(treeNodes(view.tree).filter((n) => n.status === 'needs_clarification')).toHaveLength(2);
    }, 120_000);

    it('ends success without the user: the Dispatcher answers from a bound the user wrote in words', async () => {
      const body = await unboundedTask(['Return -1 if not found', 'Must run in logarithmic time']);
      const { view, messages, dispatcher, architect } = await run(body);
      expect(view.status).toBe('success');
      expect(architect).toEqual([]);
      expect(dispatcher).toEqual([expect.objectContaining({ rule: 'dispatcher-stated-bound', subtask: 'review' })]);
      const retried = messages.find((m) => m.id === dispatcher[0].revision_id);
      expect(retried.payload.task_data).toMatchObject({ claimed_complexity: 'O(log n)' });
      expect(questions(messages, 'ROUTING_DISPATCHER')).toEqual([]);
    }, 120_000);
  });
}
