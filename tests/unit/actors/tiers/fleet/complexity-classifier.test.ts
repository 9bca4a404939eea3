import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bandOf,
  claimBand,
  claimFromText,
  growthExponent,
  judgeClaim,
  slopeAgreement,
  type Timing,
} from '../../../../../actors/tiers/fleet/complexity-classifier.ts';

const SIZES = [512, 1024, 2048, 4096, 8192, 16384, 32768];
/** Synthetic timings of a cost function, each multiplied by a noise factor. */
const timings = (cost: (n: number) => number, noise: readonly number[] = []): Timing[] =>
  SIZES.map((n, i) => ({ n, ms: cost(n) * (noise[i] ?? 1) }));

const COSTS = {
  'O(1)': () => 2e-4,
  'O(log n)': (n: number) => 1e-5 * Math.log2(n),
  'O(n)': (n: number) => 1e-6 * n,
  'O(n log n)': (n: number) => 1e-7 * n * Math.log2(n),
  'O(n^2)': (n: number) => 1e-9 * n * n,
  'O(n^3)': (n: number) => 1e-12 * n ** 3,
};

describe('complexity classifier', () => {
  it('reads the slope of clean timings', () => {
    expect(growthExponent(timings(COSTS['O(n^2)']))).toBeCloseTo(2, 6);
    expect(growthExponent(timings(COSTS['O(n)']))).toBeCloseTo(1, 6);
    expect(growthExponent(timings(COSTS['O(1)']))).toBeCloseTo(0, 6);
  });

  it.each([
    ['O(1)', 'O(1) or O(log n)'],
    ['O(log n)', 'O(1) or O(log n)'],
    ['O(n)', 'O(n) or O(n log n)'],
    ['O(n log n)', 'O(n) or O(n log n)'],
    ['O(n^2)', 'O(n^2)'],
    ['O(n^3)', 'O(n^3) or worse'],
  ] as const)('classifies %s timings as %s and accepts that claim', (claim, band) => {
    const exponent = growthExponent(timings(COSTS[claim]));
    expect(bandOf(exponent).label).toBe(band);
    expect(judgeClaim(claimBand(claim)!, exponent)).toBe('holds');
  });

  it('keeps its class when up to two of seven sizes are up to 4x slower (a loaded machine)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...(Object.keys(COSTS) as (keyof typeof COSTS)[])),
        fc.uniqueArray(fc.integer({ min: 0, max: SIZES.length - 1 }), { maxLength: 2 }),
        fc.array(fc.double({ min: 1, max: 4, noNaN: true }), { minLength: 2, maxLength: 2 }),
        fc.array(fc.double({ min: 0.85, max: 1.15, noNaN: true }), {
          minLength: SIZES.length,
          maxLength: SIZES.length,
        }),
        (claim, slowIndices, slowFactors, jitter) => {
          const noise = jitter.map((j, i) => (slowIndices.includes(i) ? j * slowFactors[slowIndices.indexOf(i)]! : j));
          const exponent = growthExponent(timings(COSTS[claim], noise));
          expect(judgeClaim(claimBand(claim)!, exponent)).toBe('holds');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('rejects a claim a band or more too optimistic, and calls a pessimistic one loose', () => {
    const quadratic = growthExponent(timings(COSTS['O(n^2)']));
    expect(judgeClaim(claimBand('O(log n)')!, quadratic)).toBe('violated');
    expect(judgeClaim(claimBand('O(n)')!, quadratic)).toBe('violated');
    const linear = growthExponent(timings(COSTS['O(n)']));
    expect(judgeClaim(claimBand('O(log n)')!, linear)).toBe('violated');
    expect(judgeClaim(claimBand('O(n^2)')!, linear)).toBe('loose');
  });

  it('reads the usual ways of writing a claim, and refuses what it cannot time', () => {
    for (const [claim, rank] of [
      ['O(1)', 0],
      ['O(log n)', 0],
      ['O(log(n))', 0],
      ['O(n)', 1],
      ['O(N)', 1],
      ['O(n log n)', 1],
      ['O(n*log n)', 1],
      ['O(n^2)', 2],
      ['O(n²)', 2],
      ['O(n * n)', 2],
      ['O(n^3)', 3],
    ] as const) {
      expect(claimBand(claim)?.rank, claim).toBe(rank);
    }
    expect(claimBand('O(S)')?.rank).toBe(1);
    expect(claimBand('O(m + n)')?.rank).toBe(1);
    expect(claimBand('O(2^n)')).toBeNull();
    expect(claimBand('fast')).toBeNull();
    expect(claimFromText(['Must handle empty arrays', 'O(log n) time complexity required'])).toBe('O(log n)');
  });

  it('scores agreement: clean timings agree fully, a scattered set less', () => {
    expect(slopeAgreement(timings(COSTS['O(n)']))).toBe(1);
    expect(slopeAgreement(timings(COSTS['O(n)'], [1, 3, 0.4, 2.5, 1, 0.5, 2]))).toBeLessThan(1);
    expect(() => growthExponent([{ n: 10, ms: 1 }])).toThrow(/two or more sizes/);
  });
});
