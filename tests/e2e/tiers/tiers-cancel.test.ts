import { afterEach, describe, expect, it } from 'vitest';
import { OFFLINE_SPECIALISTS } from '../../../actors/tiers/fleet/offline-specialists.ts';
import { startRuntime } from '../../support/runtime-harness.ts';
import { gatedSpecialist } from '../../support/tiers/fleet-hooks.ts';
import { example, settledTask, submitTask, treeNodes, type TiersRuntime } from '../../support/tiers/tiers-e2e.ts';

const runtimes: TiersRuntime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((rt) => rt.stop()));
});

// Embedded only: a specialist held in-process, and a restart of the runtime. The answer-and-cancel
// test is in tests/support/tiers/tiers-clarification-http-suite.ts, run on both hosts.
describe('cancelling a tiers task', () => {
  it('with cascade mid-run reaches every open delegation, each answering cancelled; a finished task answers its outcome', async () => {
    const solver = gatedSpecialist(OFFLINE_SPECIALISTS['js-solver']!, () => 'hold');
    const rt = await startRuntime({ systems: { tiers: { specialists: { 'js-solver': solver.specialist } } } });
    runtimes.push(rt);
    const taskId = await submitTask(rt, 'ada', await example('tiers-task.json'));
    await solver.startedCount(1);
    const running = (await rt.call('ada', 'GET', `/tiers/tasks/${taskId}`)).body;
    expect(running.status).toBe('working');
    const open = treeNodes(running.tree).filter((node) => node.status === 'working' || node.status === 'pending');
    // Monitor -> Architect -> Dispatcher -> Fleet: three levels open at once.
    expect(new Set(open.map((node) => node.target_tier))).toEqual(
      new Set(['ABSTRACT_ARCHITECT', 'ROUTING_DISPATCHER', 'SPECIALIZED_FLEET']),
    );

    const cancel = await rt.call('ada', 'POST', `/tiers/tasks/${taskId}/cancel`, await example('tiers-cancel.json'));
    expect(cancel.status).toBe(202);
    const { events, view } = await settledTask(rt, 'ada', taskId);
    expect(events.at(-1)).toEqual({ event: 'settled', data: { task_id: taskId, status: 'cancelled' } });
    expect(view.status).toBe('cancelled');
    const nodes = treeNodes(view.tree);
    for (const node of open) expect(nodes.find((n) => n.message_id === node.message_id)?.status).toBe('cancelled');
    // The held solver was told to stop (its signal), and nothing else started after the cancel.
    expect(solver.started.every((request) => request.signal?.aborted)).toBe(true);

    const messages = (await rt.call('ada', 'GET', `/tiers/tasks/${taskId}/messages`)).body.messages as any[];
    const cancellations = messages.filter((m) => m.payload.target_message_id !== undefined);
    for (const node of open) {
      expect(cancellations.map((m) => m.payload.target_message_id)).toContain(node.message_id);
      const answer = messages.find((m) => m.correlation_id === node.message_id && m.payload.status !== undefined);
      expect(answer?.payload.status, `${node.source_tier}->${node.target_tier}`).toBe('cancelled');
    }
    expect(cancellations.every((m) => m.payload.cascade === true)).toBe(true);

    const again = await rt.call('ada', 'POST', `/tiers/tasks/${taskId}/cancel`, { reason: 'again', cascade: true });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ task_id: taskId, status: 'cancelled', outcome: view.outcome });
    expect((await rt.call('bob', 'POST', `/tiers/tasks/${taskId}/cancel`, { reason: 'x', cascade: true })).status).toBe(
      404,
    );
  }, 60_000);

  it('ends a task that waits for its user cancelled, journaled in its record, still so after a restart', async () => {
    const rt = await startRuntime();
    runtimes.push(rt);
    const taskId = await submitTask(rt, 'ada', await example('tiers-task-ambiguous.json'));
    const waiting = await settledTask(rt, 'ada', taskId);
    expect(waiting.view.status).toBe('needs_clarification');
    const question = waiting.view.waiting_for_user.question;
    const cancel = await rt.call('ada', 'POST', `/tiers/tasks/${taskId}/cancel`, await example('tiers-cancel.json'));
    expect(cancel.status).toBe(202);
    const { events, view } = await settledTask(rt, 'ada', taskId);
    expect(events.at(-1)).toEqual({ event: 'settled', data: { task_id: taskId, status: 'cancelled' } });
    expect([view.status, view.waiting_for_user]).toEqual(['cancelled', null]);
    expect(view.outcome).toMatchObject({ status: 'cancelled', error_type: 'cancelled' });
    expect(view.outcome.error_detail).toContain(question);
    const answer = await rt.call('ada', 'POST', `/tiers/tasks/${taskId}/clarification`, { answer: '1' });
    expect(answer.status).toBe(409);

    await rt.stop(false);
    runtimes.splice(runtimes.indexOf(rt), 1);
    const second = await startRuntime({}, rt.dir);
    runtimes.push(second);
    const after = (await second.call('ada', 'GET', `/tiers/tasks/${taskId}`)).body;
    expect([after.status, after.outcome]).toEqual(['cancelled', view.outcome]);
    const again = await second.call('ada', 'POST', `/tiers/tasks/${taskId}/cancel`, { reason: 'again', cascade: true });
    expect([again.status, again.body.status]).toEqual([200, 'cancelled']);
  }, 60_000);
});
