import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { derivedFraction, derivedUuid } from '../../../../actors/runtime/derived-id.ts';

describe('derivedFraction', () => {
  it('is a number in [0, 1), the same for the same parts', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.integer()), { minLength: 1, maxLength: 4 }), (parts) => {
        const draw = derivedFraction(...parts);
        expect(draw).toBeGreaterThanOrEqual(0);
        expect(draw).toBeLessThan(1);
        expect(derivedFraction(...parts)).toBe(draw);
      }),
      { numRuns: 500 },
    );
  });

  it('spreads over [0, 1) like a random draw: each tenth gets its share of 5,000 draws', () => {
    const tenths = Array.from({ length: 10 }, () => 0);
    for (let i = 0; i < 5_000; i++) tenths[Math.floor(derivedFraction('retry', i) * 10)]!++;
    for (const count of tenths) expect(count).toBeGreaterThan(400);
    expect(tenths.reduce((a, b) => a + b, 0)).toBe(5_000);
  });

  it('differs from part to part, and from derivedUuid of the same parts', () => {
    expect(derivedFraction('a', 1)).not.toBe(derivedFraction('a', 2));
    expect(derivedFraction('a', 1)).not.toBe(derivedFraction('a1'));
    expect(derivedUuid('a', 1)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4/);
  });
});
