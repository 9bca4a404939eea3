/** A running mean of execution times. */
export interface TimeStats {
  count: number;
  mean_ms: number;
  max_ms: number;
}

/** Spec 002's `system/bottlenecks`: mean times per specialist and per task type, and the slowest of each. */
export interface Bottlenecks {
  specialists: Record<string, TimeStats>;
  task_types: Record<string, TimeStats>;
  slowest_specialist: { name: string; mean_ms: number } | null;
  slowest_task_type: { name: string; mean_ms: number } | null;
}

/** One timed delegation. */
export interface TimedOutcome {
  specialist: string;
  task_type: string;
  execution_time_ms: number;
}

export const EMPTY_BOTTLENECKS: Bottlenecks = {
  specialists: {},
  task_types: {},
  slowest_specialist: null,
  slowest_task_type: null,
};

function addTime(stats: TimeStats | undefined, ms: number): TimeStats {
  if (!stats) return { count: 1, mean_ms: ms, max_ms: ms };
  const count = stats.count + 1;
  return { count, mean_ms: stats.mean_ms + (ms - stats.mean_ms) / count, max_ms: Math.max(stats.max_ms, ms) };
}

/** The entry with the highest mean (ties: the first name alphabetically), or null. */
function slowest(table: Record<string, TimeStats>): { name: string; mean_ms: number } | null {
  let found: { name: string; mean_ms: number } | null = null;
  for (const name of Object.keys(table).sort()) {
    const mean = table[name]!.mean_ms;
    if (found === null || mean > found.mean_ms) found = { name, mean_ms: mean };
  }
  return found;
}

/**
 * The Monitor's update of `system/bottlenecks`: the running mean (and max) execution time of each
 * specialist and task type, and which of each is slowest on average. Pure.
 *
 * @example
 * const next = updateBottlenecks(EMPTY_BOTTLENECKS, { specialist: 'reviewer', task_type: 'review_complexity', execution_time_ms: 900 });
 * next.slowest_specialist; // { name: 'reviewer', mean_ms: 900 }
 */
export function updateBottlenecks(bottlenecks: Bottlenecks, outcome: TimedOutcome): Bottlenecks {
  const specialists = {
    ...bottlenecks.specialists,
    [outcome.specialist]: addTime(bottlenecks.specialists[outcome.specialist], outcome.execution_time_ms),
  };
  const taskTypes = {
    ...bottlenecks.task_types,
    [outcome.task_type]: addTime(bottlenecks.task_types[outcome.task_type], outcome.execution_time_ms),
  };
  return {
    specialists,
    task_types: taskTypes,
    slowest_specialist: slowest(specialists),
    slowest_task_type: slowest(taskTypes),
  };
}
