/**
 * The reviewer's rule, as pure functions over timings: the growth exponent is the slope of
 * log(time) against log(n) over doubling sizes, estimated robustly (Theil-Sen: the median of the
 * slopes between every pair of sizes, so a few slow runs on a loaded machine do not move it), then
 * read in bands of width one around the integer exponents. A log factor (O(log n) next to O(1),
 * O(n log n) next to O(n)) adds only about 0.1 to the slope at these sizes, so each band holds a
 * class and its log-factor neighbour, and a claim is judged by band.
 */

/** Mean time of one call at input size `n`. */
export interface Timing {
  n: number;
  ms: number;
}

export interface GrowthBand {
  rank: number;
  label: string;
  /** Slopes below this (and at or above the previous band's) fall in the band. */
  below: number;
}

/** Bands of the log-log slope: half a degree either side of 0, 1, 2, then everything steeper. */
export const GROWTH_BANDS: readonly GrowthBand[] = [
  { rank: 0, label: 'O(1) or O(log n)', below: 0.5 },
  { rank: 1, label: 'O(n) or O(n log n)', below: 1.5 },
  { rank: 2, label: 'O(n^2)', below: 2.5 },
  { rank: 3, label: 'O(n^3) or worse', below: Infinity },
];

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Every pairwise slope of log(ms) over log(n). */
export function pairwiseSlopes(timings: readonly Timing[]): number[] {
  const points = timings.filter((t) => t.n > 0 && t.ms > 0).map((t) => [Math.log(t.n), Math.log(t.ms)] as const);
  const slopes: number[] = [];
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      const [x1, y1] = points[i]!;
      const [x2, y2] = points[j]!;
      if (x1 !== x2) slopes.push((y2 - y1) / (x2 - x1));
    }
  }
  return slopes;
}

/**
 * The Theil-Sen slope of log(time) over log(n).
 *
 * @example growthExponent([{ n: 1000, ms: 1 }, { n: 2000, ms: 4 }, { n: 4000, ms: 16 }]) // 2
 */
export function growthExponent(timings: readonly Timing[]): number {
  const slopes = pairwiseSlopes(timings);
  if (slopes.length === 0) throw new RangeError('growthExponent needs positive timings at two or more sizes');
  return median(slopes);
}

export const bandOf = (exponent: number): GrowthBand => GROWTH_BANDS.find((band) => exponent < band.below)!;

/**
 * The band of a claim such as `O(log n)`, `O(n log n)`, `O(n^2)`, `O(n²)`, `O(n*n)`; null for what
 * the rule cannot time (exponential, fractional powers: O(sqrt n) sits on a band edge, products of variables).
 */
export function claimBand(claim: string): GrowthBand | null {
  const inner = /^o\((.*)\)$/.exec(claim.toLowerCase().replace(/[\s·⋅]/g, ''))?.[1];
  if (inner === undefined) return null;
  // One other size variable (O(S): total characters) or a sum of two grows like n here: the
  // reviewer's inputs grow in one dimension.
  const single = /^[a-z]$/.test(inner) || /^[a-z]\+[a-z]$/.test(inner) ? 'n' : inner;
  const body = single
    .replace(/²/g, '^2')
    .replace(/³/g, '^3')
    .replace(/\*/g, '')
    .replace(/log\(?n\)?/g, 'L');
  if (body === '1' || body === 'L' || body === 'LL') return GROWTH_BANDS[0]!;
  const power =
    /^n(?:\^(\d+))?(L)?$/.exec(body) ?? /^(?:L)?n(?:\^(\d+))?$/.exec(body) ?? (body === 'nn' ? ['', '2'] : null);
  if (!power) return null;
  const degree = power[1] === undefined ? 1 : Number(power[1]);
  return GROWTH_BANDS[Math.min(degree, 3)]!;
}

export type ClaimVerdict = 'holds' | 'violated' | 'loose';

/**
 * `holds` when the measured slope falls in the claim's band, `violated` when it grows a band
 * faster or more (the claim is wrong), `loose` when slower (true as an upper bound, not tight).
 */
export function judgeClaim(claim: GrowthBand, exponent: number): ClaimVerdict {
  const measured = bandOf(exponent);
  return measured.rank === claim.rank ? 'holds' : measured.rank > claim.rank ? 'violated' : 'loose';
}

/** Confidence from agreement: the share of pairwise slopes that fall in the median's band. */
export function slopeAgreement(timings: readonly Timing[]): number {
  const slopes = pairwiseSlopes(timings);
  if (slopes.length === 0) return 0;
  const rank = bandOf(median(slopes)).rank;
  return Math.round((slopes.filter((s) => bandOf(s).rank === rank).length / slopes.length) * 1000) / 1000;
}

/** A claim read from constraint lines ("O(log n) time complexity required"), if any. */
export function claimFromText(lines: readonly string[]): string | undefined {
  for (const line of lines) {
    const found = /O\([^()]*(?:\([^()]*\)[^()]*)*\)/.exec(line);
    if (found) return found[0];
  }
  return undefined;
}
