import { afterEach, describe, expect, it } from 'vitest';
import type { SpecialistRequestShape } from '../../../../machines/tiers/task-context.ts';
import type { TiersEnvelope } from '../../../../protocol/tiers/envelope.ts';
import type { DelegationPayload, OutcomePayload } from '../../../../protocol/tiers/payloads.ts';
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
    const { task_id } = await service.submit('ada', BINARY_SEARCH_TASK);
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
    // The Monitor reset once: two roots, the second with the first's correlation_id.
    const roots = delegations(messages).filter((m) => m.source_tier === 'PROGRESS_MONITOR');
    expect(roots).toHaveLength(2);
    expect(roots[1]!.correlation_id).toBe(roots[0]!.correlation_id);
  });

  it('journals a reply that comes after the watchdog as late and changes nothing', async () => {
    const data = tiersData();
    let release!: () => void;
    const late = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const service = await openTiers(data, {
      brains: {
        specialists: stubSpecialists({
          'js-solver': async (request) => {
            calls += 1;
            if (calls === 1) await late;
            return solved(request);
          },
        }),
      },
    });
    open.push(service);
    const { task_id } = await service.submit('ada', BINARY_SEARCH_TASK);
    await flush();
    await advance(data.clock, 30_000, 1_000);
    release();
    await flush();
    await advance(data.clock, 20_000, 1_000);
    const view = await settledTask(service, 'ada', task_id);
    const messages = (await service.messages('ada', task_id))!;
    const first = delegations(messages).find((m) => m.target_tier === 'SPECIALIZED_FLEET')!;
    const answers = outcomes(messages)
      .filter((m) => m.correlation_id === first.id)
      .map(statusOf);
    // The watchdog's timeout first, then the specialist's late success: journaled, and the node stays timed out.
    expect(answers).toEqual(['timeout', 'success']);
    expect(view.tree[0]!.children[0]!.children[0]!.status).toBe('timeout');
    expect(view.status).toBe('success');
  });
});
