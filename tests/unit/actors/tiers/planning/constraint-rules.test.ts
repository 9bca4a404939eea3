import { describe, expect, it } from 'vitest';
import {
  CONSTRAINT_RULES,
  deriveConstraints,
  statedComplexity,
} from '../../../../../actors/tiers/planning/constraint-rules.ts';
import type { Problem } from '../../../../../protocol/tiers/problem.ts';
import { BINARY_SEARCH, PLAIN_SUM } from '../../../../support/tiers/planning-problems.ts';

const withTests = (test_cases: Problem['test_cases'], statement = 'Do it.'): Problem => ({
  statement,
  function_name: 'f',
  language: 'javascript',
  test_cases,
});
const rule = (id: string) => CONSTRAINT_RULES.find((r) => r.id === id)!;

describe('constraint rules', () => {
  it('derive the spec example constraints from the binary search problem', () => {
    expect(deriveConstraints(BINARY_SEARCH, [])).toEqual([
      'Must handle empty arrays',
      'Must handle single-element arrays',
      'Return -1 if not found',
      'Must handle negative numbers',
      'O(log n) time complexity required',
    ]);
  });

  it('derive nothing from a problem without edge cases or a stated bound', () => {
    expect(deriveConstraints(PLAIN_SUM, ['Be quick'])).toEqual(['Be quick']);
  });

  it("keep the user's constraints first and never repeat one the user wrote (case and spaces ignored)", () => {
    const constraints = deriveConstraints(BINARY_SEARCH, ['must  handle EMPTY arrays', 'No recursion']);
    expect(constraints.slice(0, 2)).toEqual(['must  handle EMPTY arrays', 'No recursion']);
    expect(constraints.filter((c) => /empty arrays/i.test(c))).toHaveLength(1);
  });

  it('fire each on its own evidence only', () => {
    expect(rule('empty-input').derive(withTests([{ input: [''], expected: 0 }]))).toBe('Must handle empty strings');
    expect(rule('empty-input').derive(withTests([{ input: [[1]], expected: 0 }]))).toBeUndefined();
    expect(rule('single-element').derive(withTests([{ input: [[1, 2]], expected: 0 }]))).toBeUndefined();
    expect(rule('duplicates').derive(withTests([{ input: [[1, 2, 1]], expected: 0 }]))).toBe(
      'Must handle duplicate values',
    );
    expect(rule('duplicates').derive(withTests([{ input: [[1, 2, 3]], expected: 0 }]))).toBeUndefined();
    expect(rule('negative-numbers').derive(withTests([{ input: [-3], expected: 3 }]))).toBe(
      'Must handle negative numbers',
    );
    // -1 expected, but the statement never speaks of it: not a "not found" rule.
    expect(rule('not-found').derive(withTests([{ input: [1], expected: -1 }], 'Negate it.'))).toBeUndefined();
    expect(rule('not-found').derive(withTests([{ input: [1], expected: -1 }], 'Return -1 when absent.'))).toBe(
      'Return -1 if not found',
    );
  });

  it('read the complexity the statement writes or says', () => {
    expect(statedComplexity('must run in O( n  log n ) time')).toBe('O(n log n)');
    expect(statedComplexity('aim for O(log(n))')).toBe('O(log(n))');
    expect(statedComplexity('in logarithmic time')).toBe('O(log n)');
    expect(statedComplexity('in linear time')).toBe('O(n)');
    expect(statedComplexity('fast please')).toBeUndefined();
  });
});
