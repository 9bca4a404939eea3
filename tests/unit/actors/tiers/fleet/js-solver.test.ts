import { describe, expect, it } from 'vitest';
import type { FleetSandbox, TestRunReport } from '../../../../../actors/tiers/fleet/fleet-sandbox.ts';
import { createJsSolver } from '../../../../../actors/tiers/fleet/js-solver.ts';
import { testConfidence } from '../../../../../actors/tiers/fleet/test-confidence.ts';
import { OFFLINE_SPECIALISTS, realSandbox } from '../../../../../actors/tiers/fleet/offline-specialists.ts';
import type { Problem, SpecialistRequest } from '../../../../../actors/tiers/fleet/specialist-result.ts';
import { FAMILY_PROBLEMS, renamed } from './family-problems.ts';

const solve = (problem: Problem, extra: Partial<SpecialistRequest> = {}) =>
  OFFLINE_SPECIALISTS['js-solver']!.run({
    problem,
    task_type: 'execute_code',
    objective: 'Write the function',
    constraints: [],
    ...extra,
  });

/** The real sandbox, counting its runs. */
function countingSandbox(): FleetSandbox & { runs: string[] } {
  const runs: string[] = [];
  return {
    runs,
    runCalls: (input) => realSandbox.runCalls(input),
    runTests: (input) => {
      runs.push(input.code);
      return realSandbox.runTests(input);
    },
  };
}

describe('js-solver', () => {
  it.each(Object.entries(FAMILY_PROBLEMS))(
    'solves %s (problem_id absent or misleading) with a code artifact and the real test counts',
    async (id, problem) => {
      const result = await solve(
        renamed(problem, problem.function_name === 'search' ? 'findIndex' : problem.function_name),
      );
      expect(result.status, result.log.join('\n')).toBe('success');
      const [code, tests] = result.artifacts;
      expect(code?.artifact_type).toBe('code');
      expect(code?.metadata).toMatchObject({ language: 'javascript', family: id });
      expect(code?.metadata.lines).toBe(code!.content.trimEnd().split('\n').length);
      expect(tests).toEqual({
        artifact_type: 'test_result',
        content: `${problem.test_cases.length}/${problem.test_cases.length} tests passed`,
        metadata: expect.objectContaining({ passed: problem.test_cases.length, failed: 0 }),
      });
      expect(result.confidence).toBe(testConfidence(problem.test_cases.length, problem.test_cases.length));
    },
  );

  it('chooses among templates by running them: a 1-based sorted two sum gets the two-pointer template', async () => {
    const problem: Problem = {
      statement:
        'Given a 1-indexed array of integers numbers that is already sorted in non-decreasing order, find two numbers such that they add up to a specific target. Return the indices of the two numbers, index1 and index2, added by one.',
      function_name: 'twoSum',
      language: 'javascript',
      test_cases: [
        { input: [[2, 7, 11, 15], 9], expected: [1, 2] },
        { input: [[2, 3, 4], 6], expected: [1, 3] },
        { input: [[-1, 0], -1], expected: [1, 2] },
      ],
    };
    const sandbox = countingSandbox();
    const result = await createJsSolver(sandbox)({
      problem,
      task_type: 'execute_code',
      objective: 'Solve',
      constraints: [],
    });
    expect(result.status).toBe('success');
    expect(result.artifacts[0]?.metadata.template).toBe('two-pointer-sorted');
    expect(sandbox.runs).toHaveLength(2); // hash-map failed first, on the real tests
    expect(result.log.some((line) => /hash-map: 0\/3 passed/.test(line))).toBe(true);
  });

  it('picks the multi-trade stock template when the tests say so', async () => {
    const problem: Problem = {
      ...FAMILY_PROBLEMS['stock-profit']!,
      statement: 'On each day you may buy and/or sell the stock. Find and return the maximum profit you can achieve.',
      test_cases: [
        { input: [[7, 1, 5, 3, 6, 4]], expected: 7 },
        { input: [[1, 2, 3, 4, 5]], expected: 4 },
      ],
    };
    const result = await solve(problem);
    expect(result.status).toBe('success');
    expect(result.artifacts[0]?.metadata.template).toBe('sum-of-rises');
  });

  it('rotates the template order with variant, for racing attempts', async () => {
    const problem = FAMILY_PROBLEMS['binary-search']!;
    const templates = await Promise.all(
      [0, 1, 2].map(async (variant) => (await solve(problem, { variant })).artifacts[0]?.metadata.template),
    );
    expect(templates).toEqual(['iterative', 'lower-bound', 'recursive']);
  });

  it('fails another language with unsupported_language, not recoverable, without running anything', async () => {
    const sandbox = countingSandbox();
    const problem = { ...FAMILY_PROBLEMS['binary-search']!, language: 'python' };
    const result = await createJsSolver(sandbox)({
      problem,
      task_type: 'execute_code',
      objective: 'x',
      constraints: [],
    });
    expect(result).toMatchObject({ status: 'failed', error_type: 'unsupported_language', recoverable: false });
    expect(result.error_detail).toMatch(/python.*javascript/);
    expect(sandbox.runs).toEqual([]);
  });

  it('asks when two test cases give one input two expected values', async () => {
    const base = FAMILY_PROBLEMS['binary-search']!;
    const problem = { ...base, test_cases: [...base.test_cases, { input: [[], 3], expected: 0 }] };
    const result = await solve(problem);
    expect(result).toMatchObject({ status: 'needs_clarification', error_type: 'ambiguous_request', recoverable: true });
    expect(result.error_detail).toMatch(/Test cases 3 and 5 .* expect -1 and 0: which one is right\?/);
    expect(result.artifacts).toEqual([]);
  });

  it('fails an unknown problem with unsupported_problem, not recoverable', async () => {
    const problem: Problem = {
      statement: 'Return the n-th prime number.',
      function_name: 'nthPrime',
      language: 'javascript',
      test_cases: [{ input: [5], expected: 11 }],
      problem_id: 'leetcode-704',
    };
    const result = await solve(problem);
    expect(result).toMatchObject({ status: 'failed', error_type: 'unsupported_problem', recoverable: false });
    expect(result.log.join('\n')).toMatch(
      /climbing-stairs: shapes fit, but name and statement give too little evidence/,
    );
  });

  it('reports partial with the best template’s real counts when none passes every test', async () => {
    const base = FAMILY_PROBLEMS['binary-search']!;
    const problem = { ...base, test_cases: [...base.test_cases, { input: [[1, 2, 3], 3], expected: 1 }] };
    const result = await solve(problem);
    expect(result).toMatchObject({ status: 'partial', error_type: 'tests_failed', recoverable: false });
    expect(result.artifacts[1]).toMatchObject({
      content: '5/6 tests passed',
      metadata: { passed: 5, failed: 1, failing_cases: [5] },
    });
    expect(result.error_detail).toMatch(/test 5 .* expected 1, got 2/);
  });

  it('stops promptly when aborted and returns what it has', async () => {
    const controller = new AbortController();
    const never: FleetSandbox = {
      runCalls: () => new Promise(() => undefined),
      runTests: () => {
        controller.abort();
        return new Promise<TestRunReport>(() => undefined);
      },
    };
    const request = {
      problem: FAMILY_PROBLEMS['binary-search']!,
      task_type: 'execute_code',
      objective: 'x',
      constraints: [],
      signal: controller.signal,
    };
    const result = await createJsSolver(never)(request);
    expect(result).toMatchObject({ status: 'failed', error_type: 'cancelled', artifacts: [] });
  });
});
