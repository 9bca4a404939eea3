/**
 * What the test-designer reads from a problem's constraints (and statement): numeric ranges
 * written as `a <= x <= b` and words about empty inputs, duplicates and negative values.
 */
export interface ConstraintHints {
  /** Length range of the main collection (`1 <= nums.length <= 10^4`), if stated. */
  length?: { min: number; max: number };
  /** Value range of the elements or scalar arguments (`-10^4 <= nums[i], target <= 10^4`, `1 <= n <= 45`). */
  value?: { min: number; max: number };
  empty: 'required' | 'excluded' | 'unspecified';
  duplicates: 'allowed' | 'excluded' | 'unspecified';
  negatives: 'allowed' | 'excluded' | 'unspecified';
}

/** The largest collection an edge case builds, whatever the constraints allow (keeps runs short). */
export const EDGE_LENGTH_CAP = 1000;

const NUMBER = String.raw`-?\s*\d+(?:\s*(?:\^|\*\*)\s*\d+|e\d+)?`;
const RANGE = new RegExp(
  String.raw`(${NUMBER})\s*(?:<=|≤|<)\s*([A-Za-z_][\w.\[\]]*(?:\s*,\s*[A-Za-z_][\w.\[\]]*)*)\s*(?:<=|≤|<)\s*(${NUMBER})`,
  'g',
);

/** `-10^4` -> -10000, `2**31` -> 2147483648, `1e5` -> 100000. */
export function parseConstraintNumber(text: string): number {
  const compact = text.replace(/\s+/g, '');
  const sign = compact.startsWith('-') ? -1 : 1;
  const body = compact.replace(/^-/, '');
  const power = /^(\d+)(?:\^|\*\*)(\d+)$/.exec(body);
  if (power) return sign * Number(power[1]) ** Number(power[2]);
  return sign * Number(body);
}

const widen = (range: { min: number; max: number } | undefined, min: number, max: number) =>
  range ? { min: Math.min(range.min, min), max: Math.max(range.max, max) } : { min, max };

/**
 * Reads ranges and flags from constraint lines and the statement.
 *
 * @example readConstraintHints(['1 <= nums.length <= 10^4', 'All the integers in nums are unique'])
 * // { length: { min: 1, max: 10000 }, empty: 'excluded', duplicates: 'excluded', negatives: 'unspecified' }
 */
export function readConstraintHints(lines: readonly string[]): ConstraintHints {
  const text = lines.join('\n');
  let length: ConstraintHints['length'];
  let value: ConstraintHints['value'];
  for (const match of text.matchAll(RANGE)) {
    const min = parseConstraintNumber(match[1] as string);
    const max = parseConstraintNumber(match[3] as string);
    if (!Number.isFinite(min) || !Number.isFinite(max) || min > max) continue;
    for (const name of (match[2] as string).split(',').map((part) => part.trim())) {
      if (/\]\.length$/.test(name)) continue; // the length of an element (strs[i].length): not the collection's
      if (name.endsWith('.length')) length = widen(length, min, max);
      else value = widen(value, min, max);
    }
  }
  const lower = text.toLowerCase();
  const mentionsEmpty = /\bempty\b/.test(lower.replace(/non-?\s?empty|not empty/g, ''));
  const empty = mentionsEmpty ? 'required' : length && length.min >= 1 ? 'excluded' : 'unspecified';
  const duplicates = /\b(distinct|unique|no duplicates?|without duplicates?)\b/.test(lower)
    ? 'excluded'
    : /\bduplicates?\b/.test(lower)
      ? 'allowed'
      : 'unspecified';
  const negativesWords = lower.replace(/non-?\s?negative/g, '');
  const negatives =
    value && value.min < 0
      ? 'allowed'
      : value && value.min >= 0
        ? 'excluded'
        : /\bnegative\b/.test(negativesWords)
          ? 'allowed'
          : /non-?\s?negative/.test(lower)
            ? 'excluded'
            : 'unspecified';
  return { length, value, empty, duplicates, negatives };
}
