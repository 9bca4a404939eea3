import type {
  AggregatedOutcome,
  AggregationStrategy,
  ChildOutcomeSummary,
} from '../../protocol/runtime/aggregated-outcome.ts';
import type { OutcomeStatus } from '../../protocol/runtime/outcome-status.ts';

/** Weighted average of the children's confidences; 0 for no children or no weight. */
export function weightedConfidence(children: readonly ChildOutcomeSummary[]): number {
  let weights = 0;
  let sum = 0;
  for (const child of children) {
    const weight = child.weight ?? 1;
    weights += weight;
    sum += weight * child.confidence;
  }
  return weights === 0 ? 0 : sum / weights;
}

/** Under `first_success`, the first child to succeed ends the race: cancel the others. */
export function cancelsSiblings(strategy: AggregationStrategy, child: { status: string }): boolean {
  return strategy === 'first_success' && child.status === 'success';
}

/**
 * Combines the settled outcomes of a fan-out, given in the order they arrived (002's table as
 * issue 12 pins it down). Only `success` counts as success; every other child (`partial`,
 * `timeout`, `cancelled`, ...) counts in the denominator as not succeeded.
 * - `all_success`: `success` if every child succeeded, `failed` if none did, else `partial`;
 *   a `partial` where at most half succeeded (the majority failed; a tie counts as failed) is
 *   flagged `revise_strategy`.
 * - `any_success`: `success` if any child succeeded, else `failed`.
 * - `majority`: `success` if more than half succeeded, `partial` if any did, else `failed`.
 * - `first_success`: the first success wins (the others are cancelled), else `failed`.
 * Every `failed` aggregate is flagged `escalate` (002: "escalate with all error details").
 *
 * The confidence is the weighted average over the children the status rests on: every child for
 * `all_success` and `majority`, the successful ones for `any_success`, the winner for
 * `first_success` (every child when nothing succeeded).
 *
 * @example
 * aggregateOutcomes('all_success', [
 *   { message_id: 'msg-002', status: 'success', confidence: 0.9, specialist: 'python-lora' },
 *   { message_id: 'msg-004', status: 'timeout', confidence: 0, specialist: 'test-lora' },
 * ]).aggregated_status; // 'partial'
 */
export function aggregateOutcomes(
  strategy: AggregationStrategy,
  children: readonly ChildOutcomeSummary[],
): AggregatedOutcome {
  if (children.length === 0) {
    throw new RangeError(
      `A ${strategy} aggregate needs at least one child outcome; aggregate after the fan-out settles.`,
    );
  }
  const successes = children.filter((child) => child.status === 'success');
  const status = statusOf(strategy, successes.length, children.length);
  const basis =
    successes.length === 0 || strategy === 'all_success' || strategy === 'majority'
      ? children
      : strategy === 'first_success'
        ? successes.slice(0, 1)
        : successes;
  return {
    strategy_used: strategy,
    child_outcomes: [...children],
    succeeded: successes.length,
    failed: children.length - successes.length,
    aggregated_status: status,
    aggregated_confidence: weightedConfidence(basis),
    revise_strategy: strategy === 'all_success' && status === 'partial' && successes.length * 2 <= children.length,
    escalate: status === 'failed',
  };
}

/** The aggregated status of `succeeded` successes among `total` children under `strategy`. */
function statusOf(strategy: AggregationStrategy, succeeded: number, total: number): OutcomeStatus {
  if (succeeded === 0) return 'failed';
  switch (strategy) {
    case 'all_success':
      return succeeded === total ? 'success' : 'partial';
    case 'majority':
      return succeeded * 2 > total ? 'success' : 'partial';
    case 'any_success':
    case 'first_success':
      return 'success';
  }
}
