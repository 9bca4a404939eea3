import type { OutcomeStatus } from '../../../protocol/runtime/outcome-status.ts';

/** How often routing to a specialist for a task type ended `success`, recently. */
export interface AccuracyEntry {
  /** Outcomes counted (all time). */
  outcomes: number;
  /** 0..1: the mean of the first {@link WINDOW} outcomes, then an exponential moving average. */
  accuracy: number;
}

/** Spec 002's `system/routing-accuracy`: per specialist, per task type, and the overall rate. */
export interface RoutingAccuracy {
  specialists: Record<string, Record<string, AccuracyEntry>>;
  overall: AccuracyEntry;
}

/** One routed delegation's end. */
export interface RoutedOutcome {
  specialist: string;
  task_type: string;
  status: OutcomeStatus;
}

/** Statuses that say nothing about the routing: a cancelled race loser, a retry later, a question, a never-started dependent. */
export const NOT_COUNTED: ReadonlySet<OutcomeStatus> = new Set([
  'cancelled',
  'throttled',
  'needs_clarification',
  'blocked',
]);

/** The first WINDOW outcomes are averaged exactly; later ones weigh 1/WINDOW (a moving average of "recent"). */
export const WINDOW = 10;

export const EMPTY_ROUTING_ACCURACY: RoutingAccuracy = { specialists: {}, overall: { outcomes: 0, accuracy: 0 } };

/** One outcome into an entry: exact mean while young, then exponential moving average. */
export function addOutcome(entry: AccuracyEntry | undefined, success: boolean): AccuracyEntry {
  const x = success ? 1 : 0;
  if (!entry || entry.outcomes === 0) return { outcomes: 1, accuracy: x };
  const outcomes = entry.outcomes + 1;
  const weight = 1 / Math.min(outcomes, WINDOW);
  // Clamped: rounding must never carry the rate out of 0..1.
  return { outcomes, accuracy: Math.min(1, Math.max(0, entry.accuracy + weight * (x - entry.accuracy))) };
}

/**
 * The Monitor's update of `system/routing-accuracy` after a routed delegation ends: only `success`
 * counts as a success; `failed`, `partial` and `timeout` count against; the {@link NOT_COUNTED}
 * statuses leave the table as it was. Pure.
 *
 * @example
 * const next = updateRoutingAccuracy(EMPTY_ROUTING_ACCURACY, { specialist: 'js-solver', task_type: 'execute_code', status: 'success' });
 */
export function updateRoutingAccuracy(table: RoutingAccuracy, outcome: RoutedOutcome): RoutingAccuracy {
  if (NOT_COUNTED.has(outcome.status)) return table;
  const success = outcome.status === 'success';
  const byType = table.specialists[outcome.specialist] ?? {};
  return {
    specialists: {
      ...table.specialists,
      [outcome.specialist]: { ...byType, [outcome.task_type]: addOutcome(byType[outcome.task_type], success) },
    },
    overall: addOutcome(table.overall, success),
  };
}

/** A specialist's accuracy as the Dispatcher reads it: overall (mean over its task types, by outcomes) and per task type. */
export function accuracyOfSpecialist(
  table: RoutingAccuracy,
  specialist: string,
): { accuracy: number | null; accuracy_by_task_type: Record<string, number> } {
  const entries = Object.entries(table.specialists[specialist] ?? {});
  const outcomes = entries.reduce((sum, [, e]) => sum + e.outcomes, 0);
  return {
    accuracy: outcomes === 0 ? null : entries.reduce((sum, [, e]) => sum + e.accuracy * e.outcomes, 0) / outcomes,
    accuracy_by_task_type: Object.fromEntries(entries.map(([type, e]) => [type, e.accuracy])),
  };
}
