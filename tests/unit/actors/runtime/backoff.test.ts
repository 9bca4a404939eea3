import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../../../actors/runtime/backoff.ts';

describe('backoffDelay', () => {
  it('doubles from the base and stops at the cap when the draw is 0', () => {
    const policy = { baseMs: 100, maxMs: 1_000 };
    expect([1, 2, 3, 4, 5].map((attempt) => backoffDelay(policy, attempt, () => 0))).toEqual([
      100, 200, 400, 800, 1_000,
    ]);
  });

  it('takes up to the jitter share off at random', () => {
    const policy = { baseMs: 1_000, maxMs: 10_000, jitter: 0.25 };
    expect(backoffDelay(policy, 1, () => 0.999999)).toBe(750);
    expect(backoffDelay(policy, 2, () => 0.5)).toBe(1_750);
  });

  it('stays within [ceiling * (1 - jitter), ceiling] for any draw', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 20 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        (baseMs, attempt, jitter, draw) => {
          const maxMs = baseMs * 8;
          const ceiling = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
          const delay = backoffDelay({ baseMs, maxMs, jitter }, attempt, () => draw);
          expect(delay).toBeLessThanOrEqual(ceiling);
          expect(delay).toBeGreaterThanOrEqual(Math.floor(ceiling * (1 - jitter)));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('refuses an attempt below 1', () => {
    expect(() => backoffDelay({ baseMs: 1, maxMs: 1 }, 0)).toThrow(/attempt must be 1 or more/);
  });
});
