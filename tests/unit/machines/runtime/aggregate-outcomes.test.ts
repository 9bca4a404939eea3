import { describe, expect, it } from 'vitest';
import {
  aggregateOutcomes,
  cancelsSiblings,
  weightedConfidence,
} from '../../../../machines/runtime/aggregate-outcomes.ts';
import type { AggregationStrategy, ChildOutcomeSummary } from '../../../../protocol/runtime/aggregated-outcome.ts';
import type { OutcomeStatus } from '../../../../protocol/runtime/outcome-status.ts';

/** Children with these statuses, confidence 1 for a success and 0 otherwise. */
const children = (...statuses: OutcomeStatus[]): ChildOutcomeSummary[] =>
  statuses.map((status, i) => ({
    message_id: `msg-${i}`,
    status,
    confidence: status === 'success' ? 1 : 0,
    specialist: 'lora',
  }));

describe('aggregateOutcomes', () => {
  // Spec 002, "Aggregation Strategies" and "Partial Success Rules", one row per case.
  const table: [AggregationStrategy, OutcomeStatus[], OutcomeStatus, { revise: boolean; escalate: boolean }][] = [
    ['all_success', ['success', 'success', 'success'], 'success', { revise: false, escalate: false }],
    // Rule 1: majority succeeded -> partial.
    ['all_success', ['success', 'success', 'timeout'], 'partial', { revise: false, escalate: false }],
    // Rule 2: majority failed -> partial, flagged for strategy revision.
    ['all_success', ['success', 'failed', 'failed'], 'partial', { revise: true, escalate: false }],
    ['all_success', ['success', 'failed'], 'partial', { revise: true, escalate: false }],
    // Only success counts: partial progress is not success.
    ['all_success', ['partial', 'failed', 'failed'], 'failed', { revise: false, escalate: true }],
    // Rule 3: all failed -> failed, escalate.
    ['all_success', ['failed', 'timeout', 'cancelled'], 'failed', { revise: false, escalate: true }],
    ['any_success', ['failed', 'success', 'failed'], 'success', { revise: false, escalate: false }],
    ['any_success', ['failed', 'timeout'], 'failed', { revise: false, escalate: true }],
    ['any_success', ['failed', 'partial'], 'failed', { revise: false, escalate: true }],
    ['majority', ['success', 'success', 'failed'], 'success', { revise: false, escalate: false }],
    // Not more than half, but some: partial, and only all_success flags a revision.
    ['majority', ['success', 'failed'], 'partial', { revise: false, escalate: false }],
    ['majority', ['success', 'success', 'failed', 'failed'], 'partial', { revise: false, escalate: false }],
    ['majority', ['partial', 'partial', 'failed'], 'failed', { revise: false, escalate: true }],
    ['majority', ['failed', 'blocked'], 'failed', { revise: false, escalate: true }],
    ['first_success', ['cancelled', 'success', 'cancelled'], 'success', { revise: false, escalate: false }],
    ['first_success', ['failed', 'timeout'], 'failed', { revise: false, escalate: true }],
    ['first_success', ['failed', 'partial'], 'failed', { revise: false, escalate: true }],
  ];

  it.each(table)('%s over %j is %s', (strategy, statuses, status, flags) => {
    const aggregate = aggregateOutcomes(strategy, children(...statuses));
    expect(aggregate.aggregated_status).toBe(status);
    expect({ revise: aggregate.revise_strategy, escalate: aggregate.escalate }).toEqual(flags);
    expect(aggregate.succeeded).toBe(statuses.filter((s) => s === 'success').length);
    expect(aggregate.succeeded + aggregate.failed).toBe(statuses.length);
    expect(aggregate.strategy_used).toBe(strategy);
    expect(aggregate.child_outcomes.map((child) => child.status)).toEqual(statuses);
  });

  // The spec gives no child confidences; these average to its 0.78.
  it("reproduces spec 002's aggregated example: 2 of 3 done, test-lora timed out", () => {
    const aggregate = aggregateOutcomes('all_success', [
      { message_id: 'msg-002', status: 'success', confidence: 0.92, specialist: 'python-lora' },
      { message_id: 'msg-003', status: 'success', confidence: 0.9, specialist: 'python-lora' },
      { message_id: 'msg-004', status: 'timeout', confidence: 0.52, specialist: 'test-lora' },
    ]);
    expect(aggregate).toMatchObject({ aggregated_status: 'partial', succeeded: 2, failed: 1 });
    expect(aggregate.aggregated_confidence).toBeCloseTo(0.78, 10);
  });

  it("weights confidences by each child's weight (default 1)", () => {
    const weighted: ChildOutcomeSummary[] = [
      { message_id: 'a', status: 'success', confidence: 0.9, specialist: 'x', weight: 3 },
      { message_id: 'b', status: 'failed', confidence: 0.1, specialist: 'y' },
    ];
    expect(weightedConfidence(weighted)).toBeCloseTo((3 * 0.9 + 0.1) / 4, 10);
    expect(aggregateOutcomes('majority', weighted).aggregated_confidence).toBeCloseTo(0.7, 10);
    expect(weightedConfidence([{ ...weighted[0]!, weight: 0 }])).toBe(0);
    expect(weightedConfidence([])).toBe(0);
  });

  it('rests the confidence on what the status rests on: the successes (any), the winner (first), else all', () => {
    const mixed: ChildOutcomeSummary[] = [
      { message_id: 'a', status: 'failed', confidence: 0.2, specialist: 'x' },
      { message_id: 'b', status: 'success', confidence: 0.8, specialist: 'x' },
      { message_id: 'c', status: 'success', confidence: 0.6, specialist: 'x' },
    ];
    expect(aggregateOutcomes('any_success', mixed).aggregated_confidence).toBeCloseTo(0.7, 10);
    expect(aggregateOutcomes('first_success', mixed).aggregated_confidence).toBeCloseTo(0.8, 10);
    expect(aggregateOutcomes('all_success', mixed).aggregated_confidence).toBeCloseTo(1.6 / 3, 10);
    const lost = mixed.map((child) => ({ ...child, status: 'failed' as const }));
    expect(aggregateOutcomes('first_success', lost).aggregated_confidence).toBeCloseTo(1.6 / 3, 10);
    expect(aggregateOutcomes('any_success', lost).aggregated_confidence).toBeCloseTo(1.6 / 3, 10);
  });

  it('refuses an empty fan-out', () => {
    expect(() => aggregateOutcomes('majority', [])).toThrow(/at least one child outcome/);
  });
});

describe('cancelsSiblings', () => {
  it('cancels the rest only on the first success of first_success', () => {
    expect(cancelsSiblings('first_success', { status: 'success' })).toBe(true);
    expect(cancelsSiblings('first_success', { status: 'partial' })).toBe(false);
    for (const strategy of ['all_success', 'any_success', 'majority'] as const) {
      expect(cancelsSiblings(strategy, { status: 'success' })).toBe(false);
    }
  });
});
