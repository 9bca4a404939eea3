import type { StreamResponse } from '@a2a-js/sdk';
import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import { describe, expect, it } from 'vitest';
import { OFFLINE_SPECIALISTS } from '../../../actors/tiers/fleet/offline-specialists.ts';
import { payload } from '../../support/nutrition/nutrition-fakes.ts';
import { collect, send, stateName, userMessage } from '../../support/a2a/a2a-server.ts';
import { servedRuntimes } from '../../support/a2a/served-runtimes.ts';
import { gatedSpecialist } from '../../support/tiers/fleet-hooks.ts';
import { example, treeNodes } from '../../support/tiers/tiers-e2e.ts';

const { serve } = servedRuntimes();

/** The protocol error a call failed with: its JSON-RPC code and name, as the SDK's client reads them. */
async function protocolError(call: Promise<unknown>) {
  const error = (await call.then(
    () => undefined,
    (e: unknown) => e,
  )) as { envelopeCode?: number; name?: string; message?: string } | undefined;
  if (!error) throw new Error('expected the call to fail');
  return { code: error.envelopeCode, name: error.name, message: error.message };
}

/** The first event of a stream (the task), and the rest collected in the background. */
async function firstThenRest(stream: AsyncGenerator<StreamResponse>) {
  const first = await stream.next();
  const task = first.value?.payload;
  if (task?.$case !== 'task') throw new Error('expected the task first');
  return { task: task.value, rest: collect(stream) };
}

describe('CancelTask over A2A', () => {
  it('stops a running tiers task with cascade: the stream ends canceled, every open delegation is cancelled', async () => {
    const solver = gatedSpecialist(OFFLINE_SPECIALISTS['js-solver']!, () => 'hold');
    const { harness, server } = await serve({
      systems: { tiers: { specialists: { 'js-solver': solver.specialist } } },
    });
    const client = await server.client('ada', 'tiers');
    const { task, rest } = await firstThenRest(
      client.sendMessageStream(send(userMessage({ data: await example('tiers-task.json') }))),
    );
    await solver.startedCount(1);
    const running = (await harness.call('ada', 'GET', `/tiers/tasks/${task.contextId}`)).body;
    expect(running.status).toBe('working');
    const open = treeNodes(running.tree).filter((node) => node.status === 'working' || node.status === 'pending');
    expect(open.length).toBeGreaterThanOrEqual(3);

    const cancelled = await client.cancelTask({ tenant: '', id: task.id, metadata: {} });
    expect(stateName(cancelled.status?.state)).toBe('canceled');
    const { lines } = await rest;
    expect(lines[0]).toBe('status:working');
    expect(lines.at(-1)).toBe('status:canceled');

    // The tiers cancelled it with cascade: each delegation open at the time answered cancelled, the held solver was aborted.
    const view = (await harness.call('ada', 'GET', `/tiers/tasks/${task.contextId}`)).body;
    expect(view.status).toBe('cancelled');
    const nodes = treeNodes(view.tree);
    for (const node of open) expect(nodes.find((n) => n.message_id === node.message_id)?.status).toBe('cancelled');
    expect(solver.started.length).toBeGreaterThan(0);
    expect(solver.started.every((request) => request.signal?.aborted)).toBe(true);
    const messages = (await harness.call('ada', 'GET', `/tiers/tasks/${task.contextId}/messages`)).body.messages;
    const cancellations = messages.filter((m: any) => m.payload.target_message_id !== undefined);
    expect(cancellations.length).toBeGreaterThan(0);
    expect(cancellations.every((m: any) => m.payload.cascade === true)).toBe(true);

    const reread = await client.getTask({ tenant: '', id: task.id, historyLength: undefined });
    expect(stateName(reread.status?.state)).toBe('canceled');
    // A canceled task cancelled again stays as it is (the SDK's rule).
    const again = await client.cancelTask({ tenant: '', id: task.id, metadata: {} });
    expect(stateName(again.status?.state)).toBe('canceled');
  }, 60_000);

  it('stops a running task that no client streams (sent with returnImmediately)', async () => {
    const solver = gatedSpecialist(OFFLINE_SPECIALISTS['js-solver']!, () => 'hold');
    const { harness, server } = await serve({
      systems: { tiers: { specialists: { 'js-solver': solver.specialist } } },
    });
    const client = await server.client('ada', 'tiers');
    const task = await client.sendMessage(send(userMessage({ data: await example('tiers-task.json') }), true));
    if (!('id' in task)) throw new Error('expected a task');
    await solver.startedCount(1);
    const cancelled = await client.cancelTask({ tenant: '', id: task.id, metadata: {} });
    expect(stateName(cancelled.status?.state)).toBe('canceled');
    expect((await harness.call('ada', 'GET', `/tiers/tasks/${task.contextId}`)).body.status).toBe('cancelled');
    const bob = await server.client('bob', 'tiers');
    const missing = await protocolError(bob.cancelTask({ tenant: '', id: task.id, metadata: {} }));
    expect(missing.code).toBe(A2A_ERROR_CODE.TASK_NOT_FOUND);
  }, 60_000);

  it('cancels a tiers task that waits for its answer (input-required): canceled, and it stays so', async () => {
    const { harness, server } = await serve();
    const client = await server.client('ada', 'tiers');
    const asked = await client.sendMessage(send(userMessage({ data: await example('tiers-task-ambiguous.json') })));
    if (!('id' in asked)) throw new Error('expected a task');
    expect(stateName(asked.status?.state)).toBe('input-required');
    const cancelled = await client.cancelTask({ tenant: '', id: asked.id, metadata: {} });
    expect(stateName(cancelled.status?.state)).toBe('canceled');
    const view = (await harness.call('ada', 'GET', `/tiers/tasks/${asked.contextId}`)).body;
    expect([view.status, view.waiting_for_user]).toEqual(['cancelled', null]);
    // Final now: a second CancelTask is answered as the SDK does for a canceled task, and a reply is refused.
    const again = await client.cancelTask({ tenant: '', id: asked.id, metadata: {} });
    expect(stateName(again.status?.state)).toBe('canceled');
    await expect(
      client.sendMessage(send(userMessage({ text: 'the answer is 1' }, asked.id, asked.contextId))),
    ).rejects.toThrow();
  }, 60_000);

  it("answers not cancelable (the SDK's TaskNotCancelableError) for a finished task and for nutrition, also over v0.3", async () => {
    const { harness, server } = await serve();
    const tiers = await server.client('ada', 'tiers');
    const finished = await tiers.sendMessage(send(userMessage({ data: await example('tiers-task-unknown.json') })));
    if (!('id' in finished)) throw new Error('expected a task');
    expect(stateName(finished.status?.state)).toBe('rejected');
    const ended = await protocolError(tiers.cancelTask({ tenant: '', id: finished.id, metadata: {} }));
    expect(ended).toMatchObject({ code: A2A_ERROR_CODE.TASK_NOT_CANCELABLE, name: 'TaskNotCancelableError' });
    expect(
      stateName((await tiers.getTask({ tenant: '', id: finished.id, historyLength: undefined })).status?.state),
    ).toBe('rejected');

    // A pipeline paused for the referral is not final, and still not cancelable: spec 000 has no cancel.
    const nutrition = await server.client('ada', 'nutrition');
    const paused = await nutrition.sendMessage(
      send(userMessage({ data: { ...payload('intake_data'), menstrual_status: 'amenorrhea' } })),
    );
    if (!('id' in paused)) throw new Error('expected a task');
    expect(stateName(paused.status?.state)).toBe('input-required');
    const refused = await protocolError(nutrition.cancelTask({ tenant: '', id: paused.id, metadata: {} }));
    expect(refused).toMatchObject({ code: A2A_ERROR_CODE.TASK_NOT_CANCELABLE, name: 'TaskNotCancelableError' });
    expect(
      stateName((await nutrition.getTask({ tenant: '', id: paused.id, historyLength: undefined })).status?.state),
    ).toBe('input-required');

    const legacy = await fetch(`${server.base}/a2a/tiers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await harness.token('ada')}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tasks/cancel', params: { id: finished.id } }),
    });
    expect(((await legacy.json()) as any).error.code).toBe(A2A_ERROR_CODE.TASK_NOT_CANCELABLE);
  }, 60_000);
});
