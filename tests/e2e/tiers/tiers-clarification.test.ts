import { afterEach, describe, expect, it } from 'vitest';
import { startRuntime } from '../../support/runtime-harness.ts';
import { example, settledTask, submitTask, treeNodes, type TiersRuntime } from '../../support/tiers/tiers-e2e.ts';

const runtimes: TiersRuntime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((rt) => rt.stop()));
});

describe('a tiers task with contradictory tests', () => {
  it('waits for the user with the question, takes the answer over HTTP, and resumes with the same correlation', async () => {
    const rt = await startRuntime();
    runtimes.push(rt);
    const taskId = await submitTask(rt, 'ada', await example('tiers-task-ambiguous.json'));
    const waiting = await settledTask(rt, 'ada', taskId);
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

    const answered = await rt.call(
      'ada',
      'POST',
      `/tiers/tasks/${taskId}/clarification`,
      await example('tiers-clarification.json'),
    );
    expect(answered.status).toBe(202);
    const resumed = await settledTask(rt, 'ada', taskId);
    // The answer names 1: the case that agrees is kept, the contradicting one dropped, and it is solved.
    expect([resumed.view.status, resumed.view.outcome?.error_detail]).toEqual(['success', null]);
    const kept = (await rt.call('ada', 'GET', `/tiers/tasks/${taskId}/beads?prefix=task/test-cases`)).body;
    expect(JSON.stringify(kept)).toContain('"expected":1');
    expect(JSON.stringify(kept)).not.toContain('"expected":2');
    const roots = resumed.view.tree.filter((root: any) => root.source_tier === 'PROGRESS_MONITOR');
    expect(roots.length).toBe(2);
    expect(roots[0].status).toBe('needs_clarification');
    const messages = (await rt.call('ada', 'GET', `/tiers/tasks/${taskId}/messages`)).body.messages as any[];
    const rootMessages = roots.map((root: any) => messages.find((m) => m.id === root.message_id));
    expect(rootMessages[0].correlation_id).toBeNull();
    expect(rootMessages[1].correlation_id).toBe(rootMessages[0].id);
    expect(JSON.stringify(rootMessages[1].payload.task_data)).toContain('the answer is 1');
  }, 60_000);

  it('ends failed (clarification_unresolved) when the answer resolves nothing, never asking the same question twice', async () => {
    const rt = await startRuntime();
    runtimes.push(rt);
    const taskId = await submitTask(rt, 'ada', await example('tiers-task-ambiguous.json'));
    const waiting = await settledTask(rt, 'ada', taskId);
    const question = waiting.view.waiting_for_user.question;
    const answered = await rt.call('ada', 'POST', `/tiers/tasks/${taskId}/clarification`, { answer: 'I am not sure.' });
    expect(answered.status).toBe(202);
    const ended = await settledTask(rt, 'ada', taskId);
    expect(ended.view.status).toBe('failed');
    expect(ended.view.waiting_for_user).toBeNull();
    expect(ended.view.outcome).toMatchObject({ status: 'failed', error_type: 'clarification_unresolved' });
    expect(ended.view.outcome.error_detail).toContain(question);
    const again = await rt.call('ada', 'POST', `/tiers/tasks/${taskId}/clarification`, { answer: '1' });
    expect(again.status).toBe(409);
  }, 60_000);

  it('answers 409 to a clarification of a task that waits for none', async () => {
    const rt = await startRuntime();
    runtimes.push(rt);
    const taskId = await submitTask(rt, 'ada', await example('tiers-task-unknown.json'));
    await settledTask(rt, 'ada', taskId);
    const answer = await rt.call('ada', 'POST', `/tiers/tasks/${taskId}/clarification`, { answer: 'whatever' });
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('not_waiting_for_clarification');
    expect((await rt.call('bob', 'POST', `/tiers/tasks/${taskId}/clarification`, { answer: 'x' })).status).toBe(404);
  }, 60_000);
});
