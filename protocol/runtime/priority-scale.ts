/**
 * The runtime's one priority scale (DESIGN.md, Decisions): 0 = critical, 1 = high, 2 = medium,
 * 3 = low, 4 = backlog (spec 002's scale). Lower is more urgent.
 */
export type RuntimePriority = 0 | 1 | 2 | 3 | 4;

/** The least urgent runtime priority. */
export const BACKLOG_PRIORITY: RuntimePriority = 4;

/**
 * How a system's own priority maps onto the runtime's scale, as data:
 * - `{ range: [min, max] }`: a number from `min` (most urgent) to `max` (least), spread evenly
 *   over 0..4 (spec 003's 1-10: 1-2 -> 0, 3-4 -> 1, ..., 9-10 -> 4; spec 002's 0-4 is `[0, 4]`,
 *   the identity). Out-of-range numbers are clamped.
 * - `{ labels: { critical: 0, ... } }`: a label per runtime priority (spec 004's
 *   critical/high/medium/low). An unknown label reads as no priority.
 */
export type PriorityScale =
  { readonly range: readonly [number, number] } | { readonly labels: Readonly<Record<string, RuntimePriority>> };

/** Spec 002's own 0 (critical) .. 4 (backlog): the runtime's scale as it is. */
export const RUNTIME_PRIORITY_RANGE: PriorityScale = { range: [0, 4] };

/** Spec 003's 1-10, lower more urgent. */
export const PRIORITY_RANGE_1_TO_10: PriorityScale = { range: [1, 10] };

/** Turns a scale into a mapper from a raw field value to the runtime's priority (`undefined` if unreadable). */
export function priorityMapper(scale: PriorityScale): (raw: unknown) => RuntimePriority | undefined {
  if ('labels' in scale) {
    const labels = new Map(Object.entries(scale.labels));
    return (raw) => (typeof raw === 'string' ? labels.get(raw) : undefined);
  }
  const [min, max] = scale.range;
  if (!(max > min)) throw new Error(`A priority range needs min < max; got [${min}, ${max}].`);
  const step = (max - min) / BACKLOG_PRIORITY;
  return (raw) => {
    if (typeof raw !== 'number' || Number.isNaN(raw)) return undefined;
    const clamped = Math.min(max, Math.max(min, raw));
    return Math.round((clamped - min) / step) as RuntimePriority;
  };
}
