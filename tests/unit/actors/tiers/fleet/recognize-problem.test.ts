import { describe, expect, it } from 'vitest';
import { ALGORITHM_FAMILIES } from '../../../../../actors/tiers/fleet/algorithm-families.ts';
import { recogniseProblem, explainRejections } from '../../../../../actors/tiers/fleet/recognize-problem.ts';
import { FAMILY_PROBLEMS, renamed } from './family-problems.ts';

const top = (problem: Parameters<typeof recogniseProblem>[0]) =>
  recogniseProblem(problem, ALGORITHM_FAMILIES)[0]?.family.id;

describe('recogniseProblem', () => {
  it('knows at least eight families, some with two or more templates', () => {
    expect(ALGORITHM_FAMILIES.length).toBeGreaterThanOrEqual(8);
    expect(ALGORITHM_FAMILIES.filter((f) => f.templates.length >= 2).length).toBeGreaterThanOrEqual(4);
    expect(new Set(ALGORITHM_FAMILIES.map((f) => f.id)).size).toBe(ALGORITHM_FAMILIES.length);
  });

  it.each(Object.entries(FAMILY_PROBLEMS))('recognises %s from its name, statement and tests', (id, problem) => {
    expect(top(problem)).toBe(id);
  });

  it.each(Object.entries(FAMILY_PROBLEMS))(
    'recognises %s from statement and tests under a neutral name',
    (id, problem) => {
      expect(top(renamed(problem))).toBe(id);
    },
  );

  it('never reads problem_id: a misleading, absent or matching id changes nothing', () => {
    for (const [id, problem] of Object.entries(FAMILY_PROBLEMS)) {
      const { problem_id: _, ...withoutId } = problem;
      for (const variant of [withoutId, { ...problem, problem_id: 'leetcode-704' }, { ...problem, problem_id: id }]) {
        expect(recogniseProblem(variant, ALGORITHM_FAMILIES)).toEqual(recogniseProblem(withoutId, ALGORITHM_FAMILIES));
      }
    }
  });

  it('uses the test shapes: a binary-search name over pair-valued tests is two sum', () => {
    const problem = { ...FAMILY_PROBLEMS['two-sum']!, function_name: 'search', statement: 'Find them.' };
    expect(recogniseProblem(problem, ALGORITHM_FAMILIES).map((m) => m.family.id)).toEqual([]);
    expect(top({ ...problem, statement: 'Return indices of the two numbers that add up to target.' })).toBe('two-sum');
  });

  it('recognises nothing for an unknown problem, and says why per family', () => {
    const problem = {
      statement: 'Return the n-th prime number.',
      function_name: 'nthPrime',
      language: 'javascript',
      test_cases: [
        { input: [1], expected: 2 },
        { input: [5], expected: 11 },
      ],
    };
    expect(recogniseProblem(problem, ALGORITHM_FAMILIES)).toEqual([]);
    const reasons = explainRejections(problem, ALGORITHM_FAMILIES);
    expect(reasons).toHaveLength(ALGORITHM_FAMILIES.length);
    expect(reasons.find((r) => r.startsWith('climbing-stairs'))).toMatch(/too little evidence/);
    expect(reasons.find((r) => r.startsWith('binary-search'))).toMatch(/arguments/);
  });
});
