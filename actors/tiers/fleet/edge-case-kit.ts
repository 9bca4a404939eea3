import type { EdgeCase, EdgeKind } from './algorithm-family.ts';
import { randomInt, seededRandom } from './seeded-random.ts';
import { EDGE_LENGTH_CAP, type ConstraintHints } from './constraint-hints.ts';

/** The shared vocabulary of the families' edge cases: limits read from the hints, one-call cases. */

/** Length of the `large` case: the constraints' maximum, at most EDGE_LENGTH_CAP; `fallback` when unstated. */
export function largeLength(hints: ConstraintHints, fallback = 200): number {
  return Math.max(2, Math.min(hints.length?.max ?? fallback, EDGE_LENGTH_CAP));
}

/** Whether to try an empty input: the constraints ask for it, or say nothing and the family defines it. */
export function wantsEmpty(hints: ConstraintHints, definedForFamily: boolean): boolean {
  return hints.empty === 'required' || (hints.empty === 'unspecified' && definedForFamily);
}

export const wantsNegatives = (hints: ConstraintHints): boolean => hints.negatives !== 'excluded';

export const wantsDuplicates = (hints: ConstraintHints): boolean => hints.duplicates !== 'excluded';

/** The element range to build values in: the constraints', else `fallback`, kept to safe integers. */
export function valueRange(
  hints: ConstraintHints,
  fallback: { min: number; max: number },
): { min: number; max: number } {
  const range = hints.value ?? fallback;
  const limit = 2 ** 31;
  return { min: Math.max(range.min, -limit), max: Math.min(range.max, limit) };
}

/**
 * An edge case made of one call, its property checked on the one result.
 *
 * @example oneCall('single element', 'single', [[5], 5], 'nums[result] === target', (r) => (r === 0 ? null : 'wrong'))
 */
export function oneCall(
  name: string,
  kind: EdgeKind,
  args: unknown[],
  property: string,
  check: (actual: unknown) => string | null,
): EdgeCase {
  return { name, kind, calls: [args], property, check: (results) => check(results[0]) };
}

/** Integers `count` long, spread over [min, max] by a fixed rule (no randomness: the same case every run). */
export function spreadInts(count: number, min: number, max: number, seed = 1): number[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => randomInt(random, min, max));
}
