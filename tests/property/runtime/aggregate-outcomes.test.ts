import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aggregateOutcomes } from '../../../machines/runtime/aggregate-outcomes.ts';
import type { AggregationStrategy, ChildOutcomeSummary } from '../../../protocol/runtime/aggregated-outcome.ts';
import { OutcomeStatusSchema, type OutcomeStatus } from '../../../protocol/runtime/outcome-status.ts';

const STRATEGIES: AggregationStrategy[] = ['all_success', 'any_success', 'majority', 'first_success'];

const childArb = fc.record({
  status: fc.constantFrom(...OutcomeStatusSchema.options),
  confidence: fc.double({ min: 0, max: 1, noNaN: true }),
  weight: fc.option(fc.double({ min: 0.1, max: 5, noNaN: true }), { nil: undefined }),
});
const childrenArb = fc.array(childArb, { minLength: 1, maxLength: 12 }).map((children) =>
  children.map(({ weight, ...child }, i): ChildOutcomeSummary => ({
    message_id: `msg-${i}`,
    specialist: `lora-${i % 3}`,
    ...child,
    ...(weight === undefined ? {} : { weight }),
  })),
);

/**
 * Issue 12's aggregation table, sentence by sentence, as the reference: "Only SUCCESS counts as
 * success; timed-out and cancelled children count in the denominator."
 */
function reference(strategy: AggregationStrategy, statuses: readonly OutcomeStatus[]) {
  const succeeded = statuses.filter((status) => status === 'success').length;
  const total = statuses.length;
  const table: Record<AggregationStrategy, OutcomeStatus> = {
    // SUCCESS if all succeed, FAILED if none, else PARTIAL
    all_success: succeeded === total ? 'success' : succeeded === 0 ? 'failed' : 'partial',
    // SUCCESS if any, else FAILED
    any_success: succeeded > 0 ? 'success' : 'failed',
    // SUCCESS if more than half, PARTIAL if any, else FAILED
    majority: 2 * succeeded > total ? 'success' : succeeded > 0 ? 'partial' : 'failed',
    // the first SUCCESS, else FAILED
    first_success: succeeded > 0 ? 'success' : 'failed',
  };
  const status = table[strategy];
  // PARTIAL with the majority failed (half or more not succeeded): flagged for strategy revision.
  const revise = strategy === 'all_success' && status === 'partial' && total - succeeded >= succeeded;
  return { status, succeeded, revise, escalate: status === 'failed' };
}

const RANK: Record<string, number> = { failed: 0, partial: 1, success: 2 };

describe('aggregateOutcomes (property)', () => {
  it('agrees with the reference model of the tables for every strategy and mix of child outcomes', () => {
    fc.assert(
      fc.property(fc.constantFrom(...STRATEGIES), childrenArb, (strategy, children) => {
        const expected = reference(
          strategy,
          children.map((child) => child.status),
        );
        const aggregate = aggregateOutcomes(strategy, children);
        expect(aggregate.aggregated_status).toBe(expected.status);
        expect(aggregate.succeeded).toBe(expected.succeeded);
        expect(aggregate.failed).toBe(children.length - expected.succeeded);
        expect(aggregate.revise_strategy).toBe(expected.revise);
        expect(aggregate.escalate).toBe(expected.escalate);
        expect(aggregate.child_outcomes).toEqual(children);
        const winner = children.find((child) => child.status === 'success');
        if (strategy === 'first_success' && winner)
          expect(aggregate.aggregated_confidence).toBeCloseTo(winner.confidence, 9);
        const confidences = children.map((child) => child.confidence);
        expect(aggregate.aggregated_confidence).toBeGreaterThanOrEqual(Math.min(...confidences) - 1e-9);
        expect(aggregate.aggregated_confidence).toBeLessThanOrEqual(Math.max(...confidences) + 1e-9);
      }),
      { numRuns: 1000 },
    );
  });

  it('never ranks lower when one more child succeeds, and the status ignores arrival order', () => {
    fc.assert(
      fc.property(fc.constantFrom(...STRATEGIES), childrenArb, fc.nat(), (strategy, children, pick) => {
        const before = aggregateOutcomes(strategy, children).aggregated_status;
        const index = pick % children.length;
        const improved = children.map((child, i) => (i === index ? { ...child, status: 'success' as const } : child));
        expect(RANK[aggregateOutcomes(strategy, improved).aggregated_status]).toBeGreaterThanOrEqual(RANK[before]!);
        expect(aggregateOutcomes(strategy, [...children].reverse()).aggregated_status).toBe(before);
      }),
      { numRuns: 500 },
    );
  });
});
