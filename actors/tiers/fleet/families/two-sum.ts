import type { AlgorithmFamily, EdgeCase } from '../algorithm-family.ts';
import type { ConstraintHints } from '../constraint-hints.ts';
import { largeLength, oneCall, valueRange, wantsDuplicates, wantsNegatives } from '../edge-case-kit.ts';
import type { TestCase } from '../specialist-result.ts';
import { isInt, isIntArray, preview } from '../value-shapes.ts';

/** Does `pair` (with indices from `base`) name two different positions of `nums` summing to `target`? */
function pairSums(nums: number[], target: number, pair: unknown, base: number): boolean {
  if (!isIntArray(pair) || pair.length !== 2) return false;
  const [a, b] = pair as [number, number];
  return (
    a !== b &&
    nums[a - base] !== undefined &&
    nums[b - base] !== undefined &&
    nums[a - base]! + nums[b - base]! === target
  );
}

/** 1 when the problem's own examples use 1-based indices (LeetCode 167), else 0. */
function indexBase(examples: readonly TestCase[]): number {
  const fits = (base: number) =>
    examples.every(({ input, expected }) => pairSums(input[0] as number[], input[1] as number, expected, base));
  return !fits(0) && fits(1) ? 1 : 0;
}

function edgeCases(hints: ConstraintHints, examples: readonly TestCase[]): EdgeCase[] {
  const base = indexBase(examples);
  const property = `result is two different ${base}-based indices i, j with nums[i] + nums[j] === target`;
  const sumCase = (name: string, kind: EdgeCase['kind'], raw: number[], target: number) => {
    const nums = base === 1 ? [...raw].sort((a, b) => a - b) : raw; // 1-based problems take sorted input
    return oneCall(name, kind, [nums, target], property, (actual) =>
      pairSums(nums, target, actual, base) ? null : `returned ${preview(actual)}, which is not such a pair`,
    );
  };
  const { min, max } = valueRange(hints, { min: -1_000_000_000, max: 1_000_000_000 });
  const cases: EdgeCase[] = [sumCase('exactly two elements', 'single', [2, 7], 9)];
  cases.push(sumCase('pair at both ends', 'typical', [1, 10, 100, 1000, 10000], 10001));
  if (wantsDuplicates(hints)) cases.push(sumCase('equal values', 'duplicates', [3, 3], 6));
  if (wantsNegatives(hints) && min < 0)
    cases.push(sumCase('negatives summing to zero', 'negatives', [-3, 4, 3, 90], 0));
  if (min < max) cases.push(sumCase('values at both bounds', 'bounds', [min, max], min + max));
  const length = largeLength(hints, 1000);
  const nums = Array.from({ length }, (_, i) => (i * 7919) % length); // a permutation of 0..length-1 (7919 is prime)
  cases.push(sumCase(`${length} elements, the two largest`, 'large', nums, 2 * length - 3));
  return cases;
}

/** Two indices whose values add up to a target (LeetCode 1; 1-based sorted variant LeetCode 167). */
export const twoSum: AlgorithmFamily = {
  id: 'two-sum',
  title: 'Two sum',
  classic: 'LeetCode 1 (Two Sum), LeetCode 167 (Two Sum II)',
  names: ['twosum', 'twosumindices', 'findpair', 'pairsum', 'twosumsorted'],
  nameHints: ['twosum', 'pair', 'sum'],
  keywords: ['two numbers', 'add up to', 'indices', 'target', 'sum', 'exactly one solution', 'same element twice'],
  arity: 2,
  accepts: ({ input, expected }) =>
    isIntArray(input[0]) &&
    isInt(input[1]) &&
    (pairSums(input[0], input[1], expected, 0) || pairSums(input[0], input[1], expected, 1)),
  templates: [
    {
      name: 'hash-map',
      description: 'one pass remembering each value’s first index; returns [earlier, later]',
      complexity: 'O(n)',
      source: `function __fn__(nums, target) {
  const seen = new Map();
  for (let j = 0; j < nums.length; j++) {
    const i = seen.get(target - nums[j]);
    if (i !== undefined) return [i, j];
    if (!seen.has(nums[j])) seen.set(nums[j], j);
  }
  return [];
}
`,
    },
    {
      name: 'two-pointer-sorted',
      description: 'sorted input, pointers from both ends, 1-based indices (LeetCode 167)',
      complexity: 'O(n)',
      source: `function __fn__(numbers, target) {
  let lo = 0;
  let hi = numbers.length - 1;
  while (lo < hi) {
    const sum = numbers[lo] + numbers[hi];
    if (sum === target) return [lo + 1, hi + 1];
    if (sum < target) lo++;
    else hi--;
  }
  return [];
}
`,
    },
    {
      name: 'brute-force',
      description: 'every pair in order; returns the lexicographically first',
      complexity: 'O(n^2)',
      source: `function __fn__(nums, target) {
  for (let i = 0; i < nums.length; i++) {
    for (let j = i + 1; j < nums.length; j++) {
      if (nums[i] + nums[j] === target) return [i, j];
    }
  }
  return [];
}
`,
    },
  ],
  edgeCases,
  // 0..n-1 and the sum of the two largest: the only pair, found last.
  generate: (n) => [Array.from({ length: n }, (_, i) => i), 2 * n - 3],
};
