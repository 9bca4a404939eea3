import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyAnswer, expectedValueOf } from '../../../actors/tiers/fleet/clarified-tests.ts';
import { findContradiction } from '../../../actors/tiers/fleet/contradictory-tests.ts';

const input = fc.tuple(fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 3 }), fc.integer({ min: -5, max: 5 }));
const testCases = fc.array(fc.record({ input, expected: fc.integer({ min: -2, max: 2 }) }), { maxLength: 8 });

describe("applying the user's answer to contradictory test cases", () => {
  it('reads the value a sentence ends with, or a whole JSON answer', () => {
    expect(expectedValueOf('Return the index of the target: for [1, 2, 3] and 2 the answer is 1.')).toEqual({
      value: 1,
    });
    expect(expectedValueOf('[0, 2]')).toEqual({ value: [0, 2] });
    expect(expectedValueOf('I am not sure.')).toBeUndefined();
  });

  it('keeps only cases that agree with the answer where inputs contradicted, and leaves the rest alone', () => {
    fc.assert(
      fc.property(testCases, fc.integer({ min: -2, max: 2 }), (cases, value) => {
        const kept: unknown[] = applyAnswer(cases, `the answer is ${value}`);
        // A subset, in order.
        expect(kept.every((c) => (cases as unknown[]).includes(c))).toBe(true);
        for (const testCase of cases) {
          const key = JSON.stringify(testCase.input);
          const same = cases.filter((c) => JSON.stringify(c.input) === key);
          const contradictory = new Set(same.map((c) => c.expected)).size > 1;
          const named = same.some((c) => c.expected === value);
          const shouldKeep = !contradictory || !named || testCase.expected === value;
          expect(kept.includes(testCase)).toBe(shouldKeep);
        }
        // When every contradictory input has a case with the value, no contradiction is left.
        const resolvable = cases.every(
          (c) =>
            new Set(cases.filter((o) => JSON.stringify(o.input) === JSON.stringify(c.input)).map((o) => o.expected))
              .size === 1 ||
            cases.some((o) => JSON.stringify(o.input) === JSON.stringify(c.input) && o.expected === value),
        );
        if (resolvable) expect(findContradiction(kept as typeof cases)).toBeNull();
      }),
      { numRuns: 300 },
    );
  });

  it('changes nothing for an answer that names no value', () => {
    fc.assert(
      fc.property(testCases, (cases) => {
        expect(applyAnswer(cases, 'I am not sure.')).toEqual(cases);
      }),
      { numRuns: 100 },
    );
  });
});
