import { afterEach, describe, expect, it } from 'vitest';
import type { SpecialistRequestShape } from '../../../../machines/tiers/task-context.ts';
import type { TiersEnvelope } from '../../../../protocol/tiers/envelope.ts';
import type { DelegationPayload, OutcomePayload } from '../../../../protocol/tiers/payloads.ts';
import { outcomeEnvelope, outcomePayload } from '../../../../actors/tiers/tier-envelopes.ts';
import type { TiersServiceImpl } from '../../../../server/tiers/tiers-service.ts';
import { solved, stubSpecialists } from '../../../support/tiers/stub-specialists.ts';
import {
  advance,
  BINARY_SEARCH_TASK,
  flush,
  openTiers,
  settledTask,
  tiersData,
} from '../../../support/tiers/tiers-harness.ts';

const open: TiersServiceImpl[] = [];
afterEach(async () => {
  for (const service of open.splice(0)) await service.close();
});

const outcomes = (messages: TiersEnvelope[]) => messages.filter((m) => 'status' in m.payload);
const delegations = (messages: TiersEnvelope[]) => messages.filter((m) => 'task_type' in m.payload);
const statusOf = (m: TiersEnvelope) => (m.payload as OutcomePayload).status;

/** A specialist that never answers on its own: it ends only when aborted. */
const silent =
  (seen: SpecialistRequestShape[] = []) =>
  (request: SpecialistRequestShape) => {
    seen.push(request);
    return new Promise<never>((_, reject) =>
      request.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
    );
  };

describe('tiers: timeouts', () => {
  it('turns a silent specialist into timeouts by the Dispatcher’s watchdog, retries inside the deadline, escalates, and the Monitor resets once then aborts', async () => {
    const data = tiersData();
    const service = await openTiers(data, { brains: { specialists: stubSpecialists({ 'js-solver': silent() }) } });
    open.push(service);
    const { task_id } = await service.submit('ada', { ...BINARY_SEARCH_TASK, timeout_ms: 100_000 });
    await flush();
    await advance(data.clock, 2 * 125_000, 1_000);
    const view = await settledTask(service, 'ada', task_id);
    expect(view.status).toBe('timeout');
    const messages = (await service.messages('ada', task_id))!;
    const fleet = delegations(messages).filter((m) => m.target_tier === 'SPECIALIZED_FLEET');
    // Each solve attempt: a new id, the same correlation (the Dispatcher's delegation), timeout clamped to the parent's time left.
    for (const d of fleet) {
      const parent = messages.find((m) => m.id === d.correlation_id)!;
      expect((d.payload as DelegationPayload).timeout_ms!).toBeLessThanOrEqual(
        Date.parse(parent.timestamp) + (parent.payload as DelegationPayload).timeout_ms! - Date.parse(d.timestamp),
      );
    }
    expect(new Set(fleet.map((d) => d.id)).size).toBe(fleet.length);
    expect(fleet.length).toBeGreaterThan(2);
    // The watchdog's timeouts are on the wire, from the silent tier.
    expect(
      outcomes(messages).filter((m) => m.source_tier === 'SPECIALIZED_FLEET' && statusOf(m) === 'timeout').length,
    ).toBeGreaterThan(0);
    // The Monitor reset once: two roots, the second correlated with the first.
    const roots = delegations(messages).filter((m) => m.source_tier === 'PROGRESS_MONITOR');
    expect(roots).toHaveLength(2);
    expect(roots[0]!.correlation_id).toBeNull();
    expect(roots[1]!.correlation_id).toBe(roots[0]!.id);
    // The reset keeps the user's timeout, not the Architect's default of 120 s.
    expect(roots.map((r) => (r.payload as DelegationPayload).timeout_ms)).toEqual([100_000, 100_000]);
  });

  it('stops a specialist the watchdog gave up on, and journals a reply that comes after it as late, changing nothing', async () => {
    const data = tiersData();
    let aborted = 0;
    let calls = 0;
    const service = await openTiers(data, {
      brains: {
        specialists: stubSpecialists({
          'js-solver': (request) => {
            calls += 1;
            if (calls > 1) return solved(request);
            return new Promise<never>((_, reject) =>
              request.signal?.addEventListener('abort', () => (aborted++, reject(new Error('aborted')))),
            );
          },
        }),
      },
    });
    open.push(service);
    const { task_id } = await service.submit('ada', BINARY_SEARCH_TASK);
    await flush();
    await advance(data.clock, 30_000, 1_000);
    expect(aborted).toBe(1);
    const first = delegations((await service.messages('ada', task_id))!).find(
      (m) => m.target_tier === 'SPECIALIZED_FLEET',
    )!;
    // The fleet answers anyway, after the watchdog (a reply that crossed the abort): journaled, nothing changes.
    const late = outcomeEnvelope(
      {
        id: 'late-reply',
        from: 'SPECIALIZED_FLEET',
        to: 'ROUTING_DISPATCHER',
        correlationId: first.id,
        at: data.clock.now(),
      },
      outcomePayload({ status: 'success', summary: 'done, late', confidence: 1 }),
    );
    (service as unknown as { host: { get(id: string): { supervisor: { send(e: unknown): void } } } }).host
      .get(task_id)
      .supervisor.send({ type: 'supervisor.send', envelope: late });
    await advance(data.clock, 20_000, 1_000);
    const view = await settledTask(service, 'ada', task_id);
    const messages = (await service.messages('ada', task_id))!;
    const answers = outcomes(messages)
      .filter((m) => m.correlation_id === first.id)
      .map(statusOf);
    expect(answers).toEqual(['timeout', 'success']);
    expect(view.tree[0]!.children[0]!.children[0]!.status).toBe('timeout');
    expect(view.status).toBe('success');
  });
});
