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
 * Combines the settled outcomes of a fan-out, given in the order they arrived (002's table):
 * - `all_success`: success only if every child succeeded; otherwise the Partial Success Rules:
 *   most succeeded -> `partial`; at most half succeeded -> `partial` flagged `revise_strategy`;
 *   none succeeded nor made partial progress -> `failed` flagged `escalate`.
 * - `any_success`: success if any child succeeded, `failed` only if every child failed (a child
 *   with partial progress makes it `partial`).
 * - `majority`: success if more than half succeeded; otherwise as `all_success`'s rules.
 * - `first_success`: the first success wins (the others were cancelled); with no success, as
 *   `any_success`.
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
  const progressed = successes.length + children.filter((child) => child.status === 'partial').length;
  const mostSucceeded = successes.length * 2 > children.length;
  const base = {
    strategy_used: strategy,
    child_outcomes: [...children],
    succeeded: successes.length,
    failed: children.length - successes.length,
  };

  /** 002's Partial Success Rules for a fan-out that did not fully succeed. */
  const partialRules = (): Pick<AggregatedOutcome, 'aggregated_status' | 'revise_strategy' | 'escalate'> => {
    if (progressed === 0) return { aggregated_status: 'failed', revise_strategy: false, escalate: true };
    return { aggregated_status: 'partial', revise_strategy: !mostSucceeded, escalate: false };
  };
  /** Success when `won`, else partial progress or failure, without the revision flag. */
  const anyRules = (won: boolean) => ({
    aggregated_status: (won ? 'success' : progressed > 0 ? 'partial' : 'failed') as OutcomeStatus,
    revise_strategy: false,
    escalate: progressed === 0,
  });

  switch (strategy) {
    case 'all_success': {
      const rules =
        successes.length === children.length
          ? { aggregated_status: 'success' as const, revise_strategy: false, escalate: false }
          : partialRules();
      return { ...base, ...rules, aggregated_confidence: weightedConfidence(children) };
    }
    case 'majority': {
      const rules = mostSucceeded
        ? { aggregated_status: 'success' as const, revise_strategy: false, escalate: false }
        : partialRules();
      return { ...base, ...rules, aggregated_confidence: weightedConfidence(children) };
    }
    case 'any_success': {
      const basis = successes.length > 0 ? successes : children;
      return { ...base, ...anyRules(successes.length > 0), aggregated_confidence: weightedConfidence(basis) };
    }
    case 'first_success': {
      const basis = successes.length > 0 ? successes.slice(0, 1) : children;
      return { ...base, ...anyRules(successes.length > 0), aggregated_confidence: weightedConfidence(basis) };
    }
  }
}
