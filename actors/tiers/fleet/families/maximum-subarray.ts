import type { AlgorithmFamily, EdgeCase } from '../algorithm-family.ts';
import type { ConstraintHints } from '../constraint-hints.ts';
import { largeLength, oneCall, spreadInts, valueRange, wantsNegatives } from '../edge-case-kit.ts';
import { randomInt } from '../seeded-random.ts';
import { isInt, isIntArray, preview } from '../value-shapes.ts';

const PROPERTY = 'result is the sum of some non-empty contiguous subarray, and no such subarray sums to more';

/** The definition, checked over every subarray (prefix sums: O(n^2) for n <= 1000). */
function maxSubarrayProblem(nums: number[], actual: unknown): string | null {
  if (!isInt(actual)) return `returned ${preview(actual)}, not an integer`;
  const prefix = [0];
  for (const value of nums) prefix.push((prefix[prefix.length - 1] as number) + value);
  let reached = false;
  for (let i = 0; i < nums.length; i++) {
    for (let j = i + 1; j <= nums.length; j++) {
      const sum = (prefix[j] as number) - (prefix[i] as number);
      if (sum > actual) return `returned ${actual} but nums[${i}..${j - 1}] sums to ${sum}`;
      if (sum === actual) reached = true;
    }
  }
  return reached ? null : `returned ${actual}, which no non-empty contiguous subarray sums to`;
}

function edgeCases(hints: ConstraintHints): EdgeCase[] {
  const { min, max } = valueRange(hints, { min: -10_000, max: 10_000 });
  const make = (name: string, kind: EdgeCase['kind'], nums: number[]) =>
    oneCall(name, kind, [nums], PROPERTY, (actual) => maxSubarrayProblem(nums, actual));
  const cases = [make('single element', 'single', [Math.max(min, Math.min(max, 7))])];
  if (wantsNegatives(hints) && min < 0) {
    cases.push(
      make(
        'all negative',
        'negatives',
        [-8, -3, -6, -2, -5, -4].map((v) => Math.max(min, v)),
      ),
    );
    cases.push(make('single negative element', 'single', [Math.max(min, -1)]));
    cases.push(
      make(
        'mixed signs (classic)',
        'typical',
        [-2, 1, -3, 4, -1, 2, 1, -5, 4].map((v) => Math.max(min, v)),
      ),
    );
  }
  cases.push(
    make(
      'all zeros',
      'duplicates',
      [0, 0, 0, 0].map((v) => Math.max(min, v)),
    ),
  );
  if (min < max) cases.push(make('values at both bounds', 'bounds', [max, min, max]));
  const length = largeLength(hints, 1000);
  cases.push(make(`${length} elements`, 'large', spreadInts(length, Math.max(min, -100), Math.min(max, 100))));
  return cases;
}

/** The largest sum of a contiguous subarray (LeetCode 53). */
export const maximumSubarray: AlgorithmFamily = {
  id: 'maximum-subarray',
  title: 'Maximum subarray',
  classic: 'LeetCode 53 (Maximum Subarray)',
  names: ['maxsubarray', 'maximumsubarray', 'maxsubarraysum', 'largestsumsubarray', 'kadane'],
  nameHints: ['subarray', 'kadane', 'maxsum', 'largestsum'],
  keywords: ['subarray', 'contiguous', 'largest sum', 'maximum sum', 'kadane'],
  arity: 1,
  accepts: ({ input, expected }) => isIntArray(input[0]) && input[0].length > 0 && isInt(expected),
  templates: [
    {
      name: 'kadane',
      description: 'best sum ending here, one pass',
      complexity: 'O(n)',
      source: `function __fn__(nums) {
  let best = nums[0];
  let current = nums[0];
  for (let i = 1; i < nums.length; i++) {
    current = Math.max(nums[i], current + nums[i]);
    best = Math.max(best, current);
  }
  return best;
}
`,
    },
    {
      name: 'divide-and-conquer',
      description: 'best of left half, right half and the best sum across the middle',
      complexity: 'O(n log n)',
      source: `function __fn__(nums) {
  const go = (lo, hi) => {
    if (lo === hi) return nums[lo];
    const mid = (lo + hi) >> 1;
    let left = -Infinity;
    for (let i = mid, sum = 0; i >= lo; i--) left = Math.max(left, (sum += nums[i]));
    let right = -Infinity;
    for (let i = mid + 1, sum = 0; i <= hi; i++) right = Math.max(right, (sum += nums[i]));
    return Math.max(go(lo, mid), go(mid + 1, hi), left + right);
  };
  return go(0, nums.length - 1);
}
`,
    },
  ],
  edgeCases,
  generate: (n, random) => [Array.from({ length: n }, () => randomInt(random, -100, 100))],
};
