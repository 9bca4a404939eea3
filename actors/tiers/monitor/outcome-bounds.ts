import type { OutcomeStatus } from '../../../protocol/runtime/outcome-status.ts';

/** A running mean and variance (Welford), with the extremes seen. */
export interface RunningStats {
  count: number;
  mean: number;
  /** Sum of squared differences from the mean (variance = m2 / count). */
  m2: number;
  min: number;
  max: number;
}

/** What the Monitor has learned of one task type (kept in `history/outcome-bounds`). */
export interface TaskTypeBounds {
  confidence: RunningStats;
  execution_time_ms: RunningStats;
  /** Outcomes seen, and how many were `success`. */
  outcomes: number;
  successes: number;
}

/** The Monitor's bounds, per task type. */
export type OutcomeBounds = Record<string, TaskTypeBounds>;

/** One outcome as the Monitor judges it. */
export interface ObservedOutcome {
  task_type: string;
  confidence: number;
  execution_time_ms: number;
  status: OutcomeStatus;
}

/** The verdict: spec 002's `surprise_flag` and `surprise_reason`, and the bounds with this outcome learned. */
export interface OutcomeJudgement {
  surprise_flag: boolean;
  surprise_reason: string | null;
  bounds: OutcomeBounds;
}

/** How many standard deviations from the mean an outcome may fall before it surprises. */
export const SIGMAS = 3;
/** The least half-width of the confidence range: 0.15 either side of the mean. */
export const CONFIDENCE_MARGIN = 0.15;
/** The least half-width of the time range: half the mean, and at least 50 ms, either side. */
export const TIME_MARGIN_RATIO = 0.5;
export const TIME_MARGIN_MIN_MS = 50;
/** A status surprises once a type has this many outcomes and at least 90 % went the other way. */
export const STATUS_MIN_OUTCOMES = 3;
export const STATUS_RATIO = 0.9;

const startStats = (value: number): RunningStats => ({ count: 1, mean: value, m2: 0, min: value, max: value });

/** Welford's update: exact running mean and variance in one pass. */
export function addSample(stats: RunningStats, value: number): RunningStats {
  const count = stats.count + 1;
  const delta = value - stats.mean;
  const mean = stats.mean + delta / count;
  return {
    count,
    mean,
    m2: stats.m2 + delta * (value - mean),
    min: Math.min(stats.min, value),
    max: Math.max(stats.max, value),
  };
}

/** The range an outcome is expected in: mean ± max(3σ, margin). */
export function expectedRange(stats: RunningStats, margin: number): { low: number; high: number } {
  const spread = Math.max(SIGMAS * Math.sqrt(stats.m2 / stats.count), margin);
  return { low: stats.mean - spread, high: stats.mean + spread };
}

const timeMargin = (stats: RunningStats) => Math.max(TIME_MARGIN_RATIO * stats.mean, TIME_MARGIN_MIN_MS);
const round = (value: number, digits: number) => Number(value.toFixed(digits));

/** Why this outcome falls outside what the type's history leads one to expect; empty when it does not. */
function surprises(known: TaskTypeBounds, outcome: ObservedOutcome): string[] {
  const reasons: string[] = [];
  const confidence = expectedRange(known.confidence, CONFIDENCE_MARGIN);
  if (outcome.confidence < confidence.low || outcome.confidence > confidence.high) {
    reasons.push(
      `confidence ${round(outcome.confidence, 2)} is outside ${round(Math.max(0, confidence.low), 2)}..${round(Math.min(1, confidence.high), 2)}`,
    );
  }
  const time = expectedRange(known.execution_time_ms, timeMargin(known.execution_time_ms));
  if (outcome.execution_time_ms < time.low || outcome.execution_time_ms > time.high) {
    reasons.push(
      `execution time ${outcome.execution_time_ms} ms is outside ${Math.max(0, Math.round(time.low))}..${Math.round(time.high)} ms`,
    );
  }
  if (known.outcomes >= STATUS_MIN_OUTCOMES) {
    const rate = known.successes / known.outcomes;
    const success = outcome.status === 'success';
    if (!success && rate >= STATUS_RATIO)
      reasons.push(`${outcome.status} where ${Math.round(rate * 100)} % of ${known.outcomes} succeeded`);
    if (success && 1 - rate >= STATUS_RATIO)
      reasons.push(`success where ${Math.round((1 - rate) * 100)} % of ${known.outcomes} did not succeed`);
  }
  return reasons;
}

/**
 * The Monitor's surprise rule (spec 002 "Was this surprising? Update confidence bounds."): per
 * task type it keeps a running mean and variance of confidence and execution time and the
 * success rate. An outcome surprises when its confidence is outside mean ± max(3σ, 0.15), its
 * time outside mean ± max(3σ, 50 % of the mean, 50 ms), or its status goes against 90 % of at
 * least 3 earlier outcomes. The first outcome of a type sets its bounds and never surprises.
 * Every outcome is then learned. Pure: the caller stores `bounds` in `history/`.
 *
 * @example
 * const { surprise_flag, surprise_reason, bounds } = evaluateOutcome(previous, { task_type: 'execute_code', confidence: 0.2, execution_time_ms: 40, status: 'success' });
 */
export function evaluateOutcome(bounds: OutcomeBounds, outcome: ObservedOutcome): OutcomeJudgement {
  const known = bounds[outcome.task_type];
  const success = outcome.status === 'success' ? 1 : 0;
  if (!known) {
    const first: TaskTypeBounds = {
      confidence: startStats(outcome.confidence),
      execution_time_ms: startStats(outcome.execution_time_ms),
      outcomes: 1,
      successes: success,
    };
    return { surprise_flag: false, surprise_reason: null, bounds: { ...bounds, [outcome.task_type]: first } };
  }
  const reasons = surprises(known, outcome);
  const learned: TaskTypeBounds = {
    confidence: addSample(known.confidence, outcome.confidence),
    execution_time_ms: addSample(known.execution_time_ms, outcome.execution_time_ms),
    outcomes: known.outcomes + 1,
    successes: known.successes + success,
  };
  return {
    surprise_flag: reasons.length > 0,
    surprise_reason: reasons.length > 0 ? `${outcome.task_type}: ${reasons.join('; ')}` : null,
    bounds: { ...bounds, [outcome.task_type]: learned },
  };
}
