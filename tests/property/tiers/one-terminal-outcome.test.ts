import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyTree } from '../../../machines/runtime/delegation-tree-state.ts';
import { applyDelegationRecord } from '../../../machines/runtime/delegation-tree-steps.ts';
import type { SpecialistRequestShape, SpecialistResultShape } from '../../../machines/tiers/task-context.ts';
import { AggregationStrategySchema } from '../../../protocol/runtime/aggregated-outcome.ts';
import { solved, stubSpecialists } from '../../support/tiers/stub-specialists.ts';
import { BINARY_SEARCH_TASK, flush, openTiers, tiersData } from '../../support/tiers/tiers-harness.ts';

type Behaviour = 'success' | 'recoverable' | 'final' | 'silent';

const answer = (behaviour: Behaviour, request: SpecialistRequestShape): SpecialistResultShape | Promise<never> => {
  if (behaviour === 'success') return solved(request);
  if (behaviour === 'silent')
    return new Promise<never>((_, reject) =>
      request.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
    );
  return {
    status: 'failed',
    summary: 'no',
    confidence: 0,
    artifacts: [],
    log: [],
    error_type: 'wrong_answer',
    error_detail: 'no',
    recoverable: behaviour === 'recoverable',
  };
};

function message(id: string) {
  return {
    version: '1.0.0',
    id,
    timestamp: '2026-01-01T00:00:00Z',
    source_tier: 'PROGRESS_MONITOR',
    target_tier: 'ABSTRACT_ARCHITECT',
    correlation_id: null,
    payload: {
      task_type: 'solve',
      objective: 'solve',
      constraints: [],
      context_refs: [],
      priority: 1,
      timeout_ms: null,
      deadline_hint: null,
      specialist_hint: null,
      task_data: { problem: BINARY_SEARCH_TASK.problem },
    },
  };
}

describe('tiers: one terminal outcome per delegation', () => {
  it('under random specialist behaviour, timeouts, cancellations and duplicates, every delegation ends exactly once and the task settles once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom<Behaviour>('success', 'recoverable', 'final', 'silent'), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.constantFrom(...AggregationStrategySchema.options),
        fc.option(fc.record({ at: fc.integer({ min: 0, max: 90 }), cascade: fc.boolean() }), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 90 }), { nil: undefined }),
        async (behaviours, strategy, cancel, duplicateAt) => {
          const data = tiersData();
          let call = 0;
          const next = (r: SpecialistRequestShape) => answer(behaviours[call++ % behaviours.length]!, r);
          const service = await openTiers(data, {
            brains: { specialists: stubSpecialists({ 'js-solver': next, 'test-designer': next, reviewer: next }) },
          });
          try {
            const body = message('ext-1');
            body.payload.task_data = { ...body.payload.task_data, aggregation_strategy: strategy } as never;
            const first = await service.receive('ada', body);
            for (let second = 0; second <= 300; second++) {
              if (cancel?.at === second)
                await service.cancel('ada', first.task_id, { reason: 'property', cascade: cancel.cascade });
              if (duplicateAt === second) expect(await service.receive('ada', body)).toEqual(first);
              data.clock.increment(1_000);
              await flush(6);
            }
            const view = (await service.get('ada', first.task_id))!;
            expect(view.status).not.toBe('working');
            // Replaying the tree's journal: each delegation is ended by exactly one record, and none is left open.
            const tree = emptyTree();
            const endings = new Map<string, number>();
            for (const entry of await data.trees.read(first.task_id)) {
              for (const node of applyDelegationRecord(tree, entry.data).settled)
                endings.set(node.id, (endings.get(node.id) ?? 0) + 1);
            }
            for (const node of tree.nodes.values()) {
              expect(node.status, node.id).not.toBe('open');
              expect(endings.get(node.id), node.id).toBe(1);
            }
            // The envelopes: every id once in the journal, and the watchdog's timeout at most once per delegation.
            const messages = (await service.messages('ada', first.task_id))!;
            expect(new Set(messages.map((m) => m.id)).size).toBe(messages.length);
          } finally {
            await service.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  }, 240_000);
});
