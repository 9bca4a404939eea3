import { afterEach, describe, expect, it } from 'vitest';
import { cancellationEnvelope, delegationEnvelope } from '../../../../actors/tiers/tier-envelopes.ts';
import type { SpecialistRequestShape } from '../../../../machines/tiers/task-context.ts';
import type { TiersEnvelope } from '../../../../protocol/tiers/envelope.ts';
import type { DelegationPayload, OutcomePayload } from '../../../../protocol/tiers/payloads.ts';
import type { TiersServiceImpl } from '../../../../server/tiers/tiers-service.ts';
import type { DelegationView } from '../../../../server/tiers/tiers-service-api.ts';
import { solved, stubSpecialists } from '../../../support/tiers/stub-specialists.ts';
import {
  advance,
  BINARY_SEARCH_TASK,
  flush,
  openTiers,
  settledTask,
  tiersData,
  type TiersData,
} from '../../../support/tiers/tiers-harness.ts';

const open: TiersServiceImpl[] = [];
afterEach(async () => {
  for (const service of open.splice(0)) await service.close();
});

const isDelegation = (m: TiersEnvelope) => 'task_type' in m.payload;
const isOutcome = (m: TiersEnvelope) => 'status' in m.payload;
const statusOf = (m: TiersEnvelope) => (m.payload as OutcomePayload).status;
const flat = (nodes: DelegationView[]): DelegationView[] => nodes.flatMap((n) => [n, ...flat(n.children)]);

/** Puts `envelope` on the task's run, as another tier (or an external Monitor) would. */
function inject(service: TiersServiceImpl, taskId: string, envelope: TiersEnvelope): void {
  (service as unknown as { host: { get(id: string): { supervisor: { send(e: unknown): void } } } }).host
    .get(taskId)
    .supervisor.send({ type: 'supervisor.send', envelope });
}

const busy = {
  status: 'failed' as const,
  summary: 'sandbox busy',
  confidence: 0,
  artifacts: [],
  log: ['busy'],
  error_type: 'sandbox_busy',
  error_detail: 'sandbox busy, try again',
  recoverable: true,
};

/**
 * A `first_success` race of three solves over two solvers (one worker each): on `js-solver`,
 * variant 0 fails recoverably once, so its retry waits out its backoff, and variant 2 fails for
 * good; `js-solver-b` holds variant 1 until released, so the task stays open meanwhile. Resolves
 * with the retry's id (delegated in the tree, not yet on the wire) and its first attempt.
 */
async function raceWithPendingRetry(data: TiersData) {
  const runs = new Map<number | string, number>();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const solver = async (request: SpecialistRequestShape) => {
    const variant = request.variant ?? 0;
    runs.set(variant, (runs.get(variant) ?? 0) + 1);
    if (variant === 0) return busy;
    if (variant === 2) return { ...busy, summary: 'wrong answer', recoverable: false };
    await held;
    return solved(request);
  };
  const reviewer = (request: SpecialistRequestShape) => {
    runs.set('reviewer', (runs.get('reviewer') ?? 0) + 1);
    return solved(request);
  };
  const stubs = stubSpecialists({ 'js-solver': solver, reviewer });
  const specialists = { ...stubs, 'js-solver-b': stubs['js-solver']! };
  const service = await openTiers(data, { brains: { specialists } });
  open.push(service);
  const { task_id } = await service.submit('ada', { ...BINARY_SEARCH_TASK, aggregation_strategy: 'first_success' });
  await flush();
  const messages = (await service.messages('ada', task_id))!;
  const sent = new Set(messages.map((m) => m.id));
  const view = (await service.get('ada', task_id))!;
  const retry = flat(view.tree).find((n) => n.target_tier === 'SPECIALIZED_FLEET' && !sent.has(n.message_id))!;
  expect(retry).toBeDefined();
  expect(retry.status).toBe('pending');
  const first = messages.find(
    (m) =>
      isDelegation(m) &&
      m.target_tier === 'SPECIALIZED_FLEET' &&
      (m.payload as DelegationPayload).task_data['variant'] === 0,
  )!;
  return { service, task_id, runs, release, retry: retry.message_id, first };
}

const cancelOf = (target: TiersEnvelope | string, correlation: string, at: number) =>
  cancellationEnvelope(
    {
      id: `cancel-${typeof target === 'string' ? target : target.id}`,
      from: 'ROUTING_DISPATCHER',
      to: 'SPECIALIZED_FLEET',
      // Routes it to the task (a retry's id is registered only once it is sent).
      correlationId: correlation,
      at,
    },
    { target_message_id: typeof target === 'string' ? target : target.id, reason: 'not needed', cascade: true },
  );

describe('tiers: a retry and its cancellation', () => {
  it('never sends a retry whose delegation was cancelled during its backoff', async () => {
    const data = tiersData();
    const { service, task_id, runs, release, retry, first } = await raceWithPendingRetry(data);
    expect(runs.get(0)).toBe(1);
    inject(service, task_id, cancelOf(retry, first.correlation_id!, data.clock.now()));
    await flush();
    await advance(data.clock, 15_000, 500);
    const messages = (await service.messages('ada', task_id))!;
    expect(messages.some((m) => m.id === retry)).toBe(false);
    expect(runs.get(0)).toBe(1);
    release();
    const view = await settledTask(service, 'ada', task_id);
    expect(view.status).toBe('success');
  });

  it('the fleet runs nothing for a delegation whose tree node already ended', async () => {
    const data = tiersData();
    const { service, task_id, runs, release, retry, first } = await raceWithPendingRetry(data);
    inject(service, task_id, cancelOf(retry, first.correlation_id!, data.clock.now()));
    await flush();
    // The retry arrives anyway (as after a restart, or from a sender that missed the cancel).
    inject(
      service,
      task_id,
      delegationEnvelope(
        {
          id: retry,
          from: 'ROUTING_DISPATCHER',
          to: 'SPECIALIZED_FLEET',
          correlationId: first.correlation_id,
          at: data.clock.now(),
        },
        // To a specialist with nothing queued, so it would run at once.
        { ...(first.payload as DelegationPayload), specialist_hint: 'reviewer' },
      ),
    );
    await flush();
    const messages = (await service.messages('ada', task_id))!;
    expect(messages.some((m) => m.id === retry)).toBe(true);
    expect(runs.get('reviewer')).toBeUndefined();
    expect(messages.filter((m) => isOutcome(m) && m.correlation_id === retry && statusOf(m) !== 'cancelled')).toEqual(
      [],
    );
    release();
    expect((await settledTask(service, 'ada', task_id)).status).toBe('success');
  });

  it('a tier that already answered a delegation sends no second terminal outcome for a later cascade', async () => {
    const data = tiersData();
    const { service, task_id, release, first } = await raceWithPendingRetry(data);
    // Variant 0's first attempt already ended `failed` (its retry waits): a cascade reaching it now adds nothing.
    inject(service, task_id, cancelOf(first, first.correlation_id!, data.clock.now()));
    await flush();
    const messages = (await service.messages('ada', task_id))!;
    expect(messages.filter((m) => isOutcome(m) && m.correlation_id === first.id).map(statusOf)).toEqual(['failed']);
    release();
    expect((await settledTask(service, 'ada', task_id)).status).toBe('success');
  });
});

describe('tiers: a throttled specialist', () => {
  it('is retried like the other transient failures: a new id, the same correlation, after its backoff', async () => {
    const data = tiersData();
    let calls = 0;
    const specialists = stubSpecialists({
      'js-solver': (request) => {
        calls += 1;
        if (calls > 1) return solved(request);
        // Not a status the fleet contract gives, but one spec 002 lets any tier answer.
        return { ...solved(request), status: 'throttled' as 'failed', artifacts: [], recoverable: true };
      },
    });
    const service = await openTiers(data, { brains: { specialists } });
    open.push(service);
    const { task_id } = await service.submit('ada', BINARY_SEARCH_TASK);
    await flush();
    expect(calls).toBe(1);
    // Well inside the fleet's 30 s watchdog: only the retry's backoff (at most 1 s for the first) passes.
    await advance(data.clock, 2_000, 250);
    const view = (await service.get('ada', task_id))!;
    expect(view.status).toBe('success');
    expect(calls).toBe(2);
    const messages = (await service.messages('ada', task_id))!;
    const solves = messages.filter(
      (m) => isDelegation(m) && (m.payload as DelegationPayload).task_data['subtask_key'] === 'solve',
    );
    expect(solves).toHaveLength(2);
    expect(solves[1]!.id).not.toBe(solves[0]!.id);
    expect(solves[1]!.correlation_id).toBe(solves[0]!.correlation_id);
    const answers = (d: TiersEnvelope) =>
      messages.filter((m) => isOutcome(m) && m.correlation_id === d.id).map(statusOf);
    expect(answers(solves[0]!)).toEqual(['throttled']);
    expect(answers(solves[1]!)).toEqual(['success']);
  });
});
