import { afterEach, describe, expect, it } from 'vitest';
import { OFFLINE_SPECIALISTS } from '../../../actors/tiers/fleet/offline-specialists.ts';
import type { AggregationStrategy } from '../../../protocol/runtime/aggregated-outcome.ts';
import { startRuntime } from '../../support/runtime-harness.ts';
import { gatedSpecialist, type AttemptBehaviour } from '../../support/tiers/fleet-hooks.ts';
import { example, settledTask, submitTask, type TiersRuntime } from '../../support/tiers/tiers-e2e.ts';

const runtimes: TiersRuntime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((rt) => rt.stop()));
});

/** A task under `strategy` whose solving attempts behave, by variant, as `attempts` says. */
async function run(strategy: AggregationStrategy, attempts: AttemptBehaviour[]) {
  const solver = gatedSpecialist(OFFLINE_SPECIALISTS['js-solver']!, (request) => attempts[request.variant ?? 0]!);
  const rt = await startRuntime({ systems: { tiers: { specialists: { 'js-solver': solver.specialist } } } });
  runtimes.push(rt);
  const taskId = await submitTask(rt, 'ada', { ...(await example('tiers-task.json')), aggregation_strategy: strategy });
  const { view } = await settledTask(rt, 'ada', taskId);
  const messages = (await rt.call('ada', 'GET', `/tiers/tasks/${taskId}/messages`)).body.messages as any[];
  const attemptIds = messages
    .filter((m) => m.target_tier === 'SPECIALIZED_FLEET' && m.payload.task_type === 'execute_code')
    .map((m) => m.id);
  const attemptOutcomes = attemptIds.map(
    (id) => messages.find((m) => m.correlation_id === id && m.payload.status !== undefined)?.payload.status,
  );
  const aggregate = messages.find((m) => m.source_tier === 'ROUTING_DISPATCHER' && m.payload.status !== undefined);
  return { view, solver, attemptOutcomes, aggregate };
}

describe('aggregation strategies over HTTP', () => {
  it('all_success: the default plan, every subtask succeeds, success', async () => {
    const { view, aggregate } = await run('all_success', ['real']);
    expect(view.status).toBe('success');
    expect(aggregate.payload.status).toBe('success');
  }, 90_000);

  it('any_success: two of three attempts fail, one succeeds: success', async () => {
    const { view, attemptOutcomes } = await run('any_success', ['fail', 'real', 'fail']);
    expect(attemptOutcomes.filter((status) => status === 'success')).toHaveLength(1);
    expect(attemptOutcomes.filter((status) => status === 'failed').length).toBeGreaterThanOrEqual(2);
    expect(view.status).toBe('success');
  }, 90_000);

  it('majority: two of three succeed: success; one of three: partial', async () => {
    const most = await run('majority', ['real', 'fail', 'real']);
    expect(most.attemptOutcomes.filter((status) => status === 'success')).toHaveLength(2);
    expect(most.view.status).toBe('success');
    const few = await run('majority', ['fail', 'real', 'fail']);
    expect(few.attemptOutcomes.filter((status) => status === 'success').length).toBeLessThanOrEqual(1);
    expect(few.aggregate.payload.status).toBe('partial');
  }, 120_000);

  it('first_success: the first success wins and the other attempts are cancelled', async () => {
    const { view, solver, attemptOutcomes } = await run('first_success', ['real', 'hold', 'hold']);
    expect(view.status).toBe('success');
    expect(attemptOutcomes.filter((status) => status === 'success')).toHaveLength(1);
    expect(attemptOutcomes.filter((status) => status === 'cancelled')).toHaveLength(2);
    const held = solver.started.filter((request) => (request.variant ?? 0) > 0);
    // A racer still queued behind the others when the winner cancelled it never starts (the fleet
    // runs no delegation that already ended); one that had started is aborted.
    expect(held.length).toBeLessThanOrEqual(2);
    expect(held.every((request) => request.signal?.aborted)).toBe(true);
  }, 90_000);
});
