import { describe, expect, it } from 'vitest';
import { ALGORITHM_FAMILIES } from '../../../../../actors/tiers/fleet/algorithm-families.ts';
import { renderTemplate } from '../../../../../actors/tiers/fleet/algorithm-family.ts';
import { readConstraintHints } from '../../../../../actors/tiers/fleet/constraint-hints.ts';
import type { FleetSandbox } from '../../../../../actors/tiers/fleet/fleet-sandbox.ts';
import { OFFLINE_SPECIALISTS, realSandbox } from '../../../../../actors/tiers/fleet/offline-specialists.ts';
import { createTestDesigner } from '../../../../../actors/tiers/fleet/test-designer.ts';
import type { Problem } from '../../../../../actors/tiers/fleet/specialist-result.ts';
import { FAMILY_PROBLEMS } from './family-problems.ts';

const design = (problem: Problem, code: string | undefined, constraints: string[] = []) =>
  OFFLINE_SPECIALISTS['test-designer']!.run({
    problem,
    code,
    task_type: 'design_tests',
    objective: 'Design edge cases',
    constraints,
  });

const binarySearchProblem = FAMILY_PROBLEMS['binary-search']!;

describe('test-designer', () => {
  it.each(ALGORITHM_FAMILIES.map((family) => [family.id, family] as const))(
    'finds every %s template correct on its edge cases, checked by properties',
    async (id, family) => {
      const problem = FAMILY_PROBLEMS[id]!;
      for (const template of family.templates) {
        // Each template answers its own variant (1-based two sum, multi-trade stock): check the family's first.
        if (template !== family.templates[0]) continue;
        const result = await design(problem, renderTemplate(template, problem.function_name));
        expect(result.status, result.error_detail).toBe('success');
        const [artifact] = result.artifacts;
        expect(artifact?.artifact_type).toBe('test_result');
        expect(artifact?.metadata.failed).toBe(0);
        expect(artifact?.metadata.passed).toBeGreaterThanOrEqual(4);
        const cases = JSON.parse(artifact!.content.split('\n')[1]!) as { property: string; holds: boolean }[];
        expect(cases.every((c) => c.holds && c.property.length > 10)).toBe(true);
      }
    },
  );

  it('derives the cases from the constraints: empty input only when allowed', async () => {
    const code = renderTemplate(ALGORITHM_FAMILIES[0]!.templates[0]!, 'search');
    const withEmpty = await design(binarySearchProblem, code, ['Must handle empty arrays']);
    const withoutEmpty = await design(binarySearchProblem, code, [
      '1 <= nums.length <= 10^4',
      'All the integers in nums are unique',
    ]);
    const kinds = (r: typeof withEmpty) => r.artifacts[0]?.metadata.kinds as string[];
    expect(kinds(withEmpty)).toEqual(expect.arrayContaining(['empty', 'single', 'not_found', 'bounds', 'duplicates']));
    expect(kinds(withoutEmpty)).not.toContain('empty');
    expect(kinds(withoutEmpty)).not.toContain('duplicates');
    expect(withoutEmpty.artifacts[0]?.content).toContain('[[-10000,10000],10000]'); // the stated bounds
  });

  it('fails a broken solution with the violating case and the property it broke', async () => {
    // Returns where the target would go, not -1, when it is absent.
    const broken = `function search(nums, target) {
  let lo = 0, hi = nums.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (nums[mid] < target) lo = mid + 1; else hi = mid; }
  return lo;
}`;
    const result = await design(binarySearchProblem, broken, ['Must handle empty arrays']);
    expect(result).toMatchObject({ status: 'failed', error_type: 'property_violated', recoverable: false });
    expect(result.error_detail).toMatch(
      /Edge case "empty array" \(input \[\[\],0\]\): returned 0 but 0 is absent, so -1 is required/,
    );
    expect(result.error_detail).toMatch(/Property: result is -1 iff target is absent/);
    expect(result.artifacts[0]?.metadata.failed).toBeGreaterThan(0);
  });

  it('reports a solution that throws on an edge case', async () => {
    const throwing =
      'function maxSubArray(nums) { if (nums.length > 500) throw new Error("too long"); return Math.max(...nums); }';
    const result = await design(FAMILY_PROBLEMS['maximum-subarray']!, throwing);
    expect(result.status).toBe('failed');
    expect(result.error_detail).toMatch(/returned|threw/);
  });

  it('refuses python, a missing solution and an unknown problem', async () => {
    const code = 'function search() { return -1; }';
    expect(await design({ ...binarySearchProblem, language: 'python' }, code)).toMatchObject({
      error_type: 'unsupported_language',
    });
    expect(await design(binarySearchProblem, undefined)).toMatchObject({
      error_type: 'missing_code',
      recoverable: false,
    });
    const unknown = {
      ...binarySearchProblem,
      statement: 'Count the primes.',
      function_name: 'countPrimes',
      test_cases: [{ input: [10], expected: 4 }],
    };
    expect(await design(unknown, code)).toMatchObject({ error_type: 'unsupported_problem', recoverable: false });
  });

  it('returns its test plan when aborted before the run ends', async () => {
    const controller = new AbortController();
    const sandbox: FleetSandbox = {
      ...realSandbox,
      runCalls: () => {
        controller.abort();
        return new Promise(() => undefined);
      },
    };
    const result = await createTestDesigner(sandbox)({
      problem: binarySearchProblem,
      code: 'function search() { return -1; }',
      task_type: 'design_tests',
      objective: 'x',
      constraints: [],
      signal: controller.signal,
    });
    expect(result).toMatchObject({ status: 'partial', error_type: 'cancelled' });
    expect(result.artifacts[0]?.artifact_type).toBe('test_plan');
  });
});

describe('readConstraintHints', () => {
  it('reads ranges in LeetCode notation and the words about empty, duplicates and negatives', () => {
    expect(
      readConstraintHints([
        '1 <= nums.length <= 10^4',
        '-10^4 < nums[i], target < 10^4',
        'All the integers in nums are unique.',
      ]),
    ).toEqual({
      length: { min: 1, max: 10_000 },
      value: { min: -10_000, max: 10_000 },
      empty: 'excluded',
      duplicates: 'excluded',
      negatives: 'allowed',
    });
    expect(
      readConstraintHints(['Must handle empty arrays', 'nums may contain duplicates', 'values are non-negative']),
    ).toMatchObject({
      empty: 'required',
      duplicates: 'allowed',
      negatives: 'excluded',
    });
    expect(readConstraintHints(['1 <= n <= 45', '1 <= strs[i].length <= 200'])).toMatchObject({
      value: { min: 1, max: 45 },
    });
    expect(readConstraintHints(['nums is non-empty'])).toMatchObject({ empty: 'unspecified' });
  });
});
