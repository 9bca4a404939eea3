import { afterEach, describe, expect, it } from 'vitest';
import type { SpecialistRequestShape } from '../../../../machines/tiers/task-context.ts';
import type { TiersEnvelope } from '../../../../protocol/tiers/envelope.ts';
import type { DelegationPayload, OutcomePayload } from '../../../../protocol/tiers/payloads.ts';
import type { TiersServiceImpl } from '../../../../server/tiers/tiers-service.ts';
import { solved, stubSpecialists } from '../../../support/tiers/stub-specialists.ts';
import { BINARY_SEARCH_TASK, flush, openTiers, settledTask, tiersData } from '../../../support/tiers/tiers-harness.ts';

const open: TiersServiceImpl[] = [];
afterEach(async () => {
  for (const service of open.splice(0)) await service.close();
});

const statusOf = (m: TiersEnvelope) => (m.payload as OutcomePayload).status;
const isCancellation = (m: TiersEnvelope) => 'target_message_id' in m.payload;

describe('tiers: cancellation', () => {
  it('cascades a cancel to every descendant; each tier answers cancelled and the specialist’s work is aborted', async () => {
    const data = tiersData();
    let aborted = false;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const specialists = stubSpecialists({
      'js-solver': (request: SpecialistRequestShape) => {
        started();
        return new Promise((_, reject) =>
          request.signal?.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('aborted'));
          }),
        );
      },
    });
    const service = await openTiers(data, { brains: { specialists } });
    open.push(service);
    const { task_id } = await service.submit('ada', BINARY_SEARCH_TASK);
    await running;
    expect(await service.cancel('ada', task_id, { reason: 'user changed mind', cascade: true })).toEqual({
      accepted: true,
    });
    const view = await settledTask(service, 'ada', task_id);
    await flush();
    expect(view.status).toBe('cancelled');
    expect(aborted).toBe(true);
    const walk = (nodes: typeof view.tree): string[] => nodes.flatMap((n) => [n.status, ...walk(n.children)]);
    expect(new Set(walk(view.tree))).toEqual(new Set(['cancelled']));
    const messages = (await service.messages('ada', task_id))!;
    expect(messages.filter(isCancellation).map((m) => m.target_tier)).toEqual([
      'ABSTRACT_ARCHITECT',
      'ROUTING_DISPATCHER',
      'SPECIALIZED_FLEET',
    ]);
    const cancelledFrom = messages
      .filter((m) => 'status' in m.payload && statusOf(m) === 'cancelled')
      .map((m) => m.source_tier);
    expect(new Set(cancelledFrom)).toEqual(new Set(['ABSTRACT_ARCHITECT', 'ROUTING_DISPATCHER', 'SPECIALIZED_FLEET']));
    for (const m of messages.filter((m) => 'status' in m.payload && statusOf(m) === 'cancelled')) {
      expect((m.payload as OutcomePayload).resources_used).toHaveProperty('partial_results');
    }
  });

  it('answers a cancel of a finished task with its outcome', async () => {
    const service = await openTiers(tiersData());
    open.push(service);
    const { task_id } = await service.submit('ada', BINARY_SEARCH_TASK);
    const done = await settledTask(service, 'ada', task_id);
    const answer = await service.cancel('ada', task_id, { reason: 'too late', cascade: true });
    expect(answer).toEqual({ finished: done });
    expect(await service.cancel('bob', task_id, { reason: 'not mine', cascade: true })).toBeUndefined();
  });
});

describe('tiers: clarification', () => {
  const ambiguous = (request: SpecialistRequestShape) =>
    request.constraints.some((c) => c.startsWith('Clarified by the user: '))
      ? solved(request)
      : {
          status: 'needs_clarification' as const,
          summary: 'Ambiguous requirements for edge case handling',
          confidence: 0,
          artifacts: [],
          log: ['contradictory test cases'],
          error_type: 'ambiguous_request',
          error_detail: 'Should empty array return -1 or raise exception?',
          recoverable: true,
        };

  it('flows a question up to the user (the task is settled, waiting), and the answer resumes it as a new delegation with the same correlation', async () => {
    const service = await openTiers(tiersData(), {
      brains: { specialists: stubSpecialists({ 'js-solver': ambiguous }) },
    });
    open.push(service);
    const { task_id } = await service.submit('ada', { ...BINARY_SEARCH_TASK, timeout_ms: 300_000 });
    const waiting = await settledTask(service, 'ada', task_id);
    expect(waiting.status).toBe('needs_clarification');
    expect(waiting.waiting_for_user).toEqual({ question: 'Should empty array return -1 or raise exception?' });
    expect(await service.clarify('bob', task_id, 'return -1')).toBeUndefined();
    expect(await service.clarify('ada', task_id, 'return -1')).toBe('accepted');
    const done = await settledTask(service, 'ada', task_id);
    expect(done.status).toBe('success');
    expect(done.waiting_for_user).toBeNull();
    expect(await service.clarify('ada', task_id, 'again')).toBe('not_waiting');
    const messages = (await service.messages('ada', task_id))!;
    const roots = messages.filter((m) => m.source_tier === 'PROGRESS_MONITOR' && 'task_type' in m.payload);
    expect(roots).toHaveLength(2);
    expect(roots[0]!.correlation_id).toBeNull();
    expect(roots[1]!.correlation_id).toBe(roots[0]!.id);
    // The answer keeps the user's timeout, not the Architect's default of 120 s.
    expect(roots.map((r) => (r.payload as DelegationPayload).timeout_ms)).toEqual([300_000, 300_000]);
    expect(done.tree.map((n) => n.status)).toEqual(['needs_clarification', 'success']);
  });
});
