import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALGORITHM_FAMILIES } from '../../../actors/tiers/fleet/algorithm-families.ts';
import { OFFLINE_SPECIALISTS } from '../../../actors/tiers/fleet/offline-specialists.ts';
import { recogniseProblem } from '../../../actors/tiers/fleet/recognize-problem.ts';
import type { Problem } from '../../../protocol/tiers/problem.ts';
import { FAMILY_PROBLEMS } from '../../unit/actors/tiers/fleet/family-problems.ts';
import { FAMILY_CASES, testCasesOf } from './fleet-instances.ts';

const ids = Object.keys(FAMILY_CASES);
/** A problem id that names some other family, or none: recognition must not care. */
const misleadingId = (id: string) =>
  fc.option(fc.constantFrom(...ids.filter((other) => other !== id).map((other) => `leetcode-${other}`)), {
    nil: undefined,
  });

function problemOf(
  id: string,
  testCases: Problem['test_cases'],
  problemId: string | undefined,
  neutralName: boolean,
): Problem {
  const base = FAMILY_PROBLEMS[id]!;
  return {
    ...(problemId ? { problem_id: problemId } : {}),
    statement: base.statement,
    function_name: neutralName ? 'solve' : base.function_name,
    language: 'javascript',
    test_cases: testCases,
  };
}

describe('js-solver over generated instances', () => {
  it('covers every family', () => {
    expect(new Set(ids)).toEqual(new Set(ALGORITHM_FAMILIES.map((family) => family.id)));
  });

  it.each(ids)('recognises generated %s instances whatever their problem_id and name (pure, 200 runs)', (id) => {
    fc.assert(
      fc.property(testCasesOf(id, 12), misleadingId(id), fc.boolean(), (testCases, problemId, neutral) => {
        const [match] = recogniseProblem(problemOf(id, testCases, problemId, neutral), ALGORITHM_FAMILIES);
        expect(match?.family.id).toBe(id);
      }),
      { numRuns: 200 },
    );
  });

  // Each run spawns sandbox processes, so runs are few and each carries many test cases.
  it.each(ids)('solves generated %s instances with every test passing (sandbox)', async (id) => {
    await fc.assert(
      fc.asyncProperty(testCasesOf(id), misleadingId(id), fc.boolean(), async (testCases, problemId, neutral) => {
        const problem = problemOf(id, testCases, problemId, neutral);
        const result = await OFFLINE_SPECIALISTS['js-solver']!.run({
          problem,
          task_type: 'execute_code',
          objective: 'Solve',
          constraints: [],
        });
        expect(result.status, result.log.join('\n')).toBe('success');
        expect(result.artifacts[0]?.metadata.family).toBe(id);
        expect(result.artifacts[1]?.metadata).toMatchObject({ passed: testCases.length, failed: 0 });
      }),
      { numRuns: 5 },
    );
  });
});
