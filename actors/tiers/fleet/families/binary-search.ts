import type { AlgorithmFamily, EdgeCase } from '../algorithm-family.ts';
import type { ConstraintHints } from '../constraint-hints.ts';
import { largeLength, oneCall, valueRange, wantsDuplicates, wantsEmpty, wantsNegatives } from '../edge-case-kit.ts';
import { isInt, isIntArray, isSortedAscending, preview } from '../value-shapes.ts';

/** The definition: -1 iff `target` is absent, else an index holding it. */
function searchResultProblem(nums: number[], target: number, actual: unknown): string | null {
  if (!isInt(actual)) return `returned ${preview(actual)}, not an integer index`;
  const at = nums.indexOf(target);
  if (at === -1) return actual === -1 ? null : `returned ${actual} but ${target} is absent, so -1 is required`;
  if (actual === -1) return `returned -1 but ${target} is at index ${at}`;
  if (actual < 0 || actual >= nums.length) return `returned ${actual}, outside 0..${nums.length - 1}`;
  return nums[actual] === target ? null : `returned ${actual} but nums[${actual}] = ${nums[actual]}, not ${target}`;
}

const PROPERTY = 'result is -1 iff target is absent, else nums[result] === target';

function searchCase(name: string, kind: EdgeCase['kind'], nums: number[], target: number): EdgeCase {
  return oneCall(name, kind, [nums, target], PROPERTY, (actual) => searchResultProblem(nums, target, actual));
}

function edgeCases(hints: ConstraintHints): EdgeCase[] {
  const { min, max } = valueRange(hints, { min: -10_000, max: 10_000 });
  const mid = Math.trunc((min + max) / 2);
  const cases: EdgeCase[] = [];
  if (wantsEmpty(hints, true)) cases.push(searchCase('empty array', 'empty', [], mid));
  cases.push(searchCase('single element, present', 'single', [mid], mid));
  if (mid + 1 <= max) cases.push(searchCase('single element, absent', 'not_found', [mid], mid + 1));
  const sorted = [...new Set([min + 1, mid - 2, mid, mid + 2, max - 1])].filter((v) => v >= min && v <= max);
  sorted.sort((a, b) => a - b);
  const first = sorted[0] as number;
  const last = sorted[sorted.length - 1] as number;
  cases.push(searchCase('target at the first index', 'bounds', sorted, first));
  cases.push(searchCase('target at the last index', 'bounds', sorted, last));
  if (sorted.length >= 2 && (sorted[1] as number) - first > 1) {
    cases.push(searchCase('target between two elements', 'not_found', sorted, first + 1));
  }
  if (first > min) cases.push(searchCase('target below the minimum', 'not_found', sorted, min));
  if (last < max) cases.push(searchCase('target above the maximum', 'not_found', sorted, max));
  if (min < max) cases.push(searchCase('values at both bounds', 'bounds', [min, max], max));
  if (wantsDuplicates(hints)) cases.push(searchCase('duplicates of the target', 'duplicates', [1, 2, 2, 2, 3], 2));
  if (wantsNegatives(hints) && min < 0) {
    cases.push(searchCase('negative values', 'negatives', [Math.max(min, -9), -5, -1, 0, 3], -5));
  }
  const length = largeLength(hints, 1000);
  const evens = Array.from({ length }, (_, i) => 2 * i);
  cases.push(searchCase(`${length} elements, present`, 'large', evens, 2 * Math.floor(length / 3)));
  cases.push(searchCase(`${length} elements, absent`, 'large', evens, 2 * Math.floor(length / 3) + 1));
  return cases;
}

/** Binary search for a target in a sorted array (LeetCode 704). */
export const binarySearch: AlgorithmFamily = {
  id: 'binary-search',
  title: 'Binary search',
  classic: 'LeetCode 704 (Binary Search)',
  names: ['search', 'binarysearch', 'bsearch', 'searchsorted', 'findtarget', 'searchtarget'],
  nameHints: ['binarysearch', 'bsearch', 'search', 'find'],
  keywords: ['binary search', 'sorted', 'ascending', 'target', 'return -1', 'index', 'o(log n)', 'does not exist'],
  arity: 2,
  accepts: ({ input, expected }) =>
    isIntArray(input[0]) &&
    isSortedAscending(input[0]) &&
    isInt(input[1]) &&
    isInt(expected) &&
    expected >= -1 &&
    expected < input[0].length,
  templates: [
    {
      name: 'iterative',
      description: 'closed interval [lo, hi], returns the first index found',
      complexity: 'O(log n)',
      source: `function __fn__(nums, target) {
  let lo = 0;
  let hi = nums.length - 1;
  while (lo <= hi) {
    const mid = lo + ((hi - lo) >> 1);
    if (nums[mid] === target) return mid;
    if (nums[mid] < target) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
`,
    },
    {
      name: 'lower-bound',
      description: 'half-open interval, returns the leftmost index of the target',
      complexity: 'O(log n)',
      source: `function __fn__(nums, target) {
  let lo = 0;
  let hi = nums.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (nums[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo < nums.length && nums[lo] === target ? lo : -1;
}
`,
    },
    {
      name: 'recursive',
      description: 'recursive halving of [lo, hi]',
      complexity: 'O(log n)',
      source: `function __fn__(nums, target) {
  const go = (lo, hi) => {
    if (lo > hi) return -1;
    const mid = lo + ((hi - lo) >> 1);
    if (nums[mid] === target) return mid;
    return nums[mid] < target ? go(mid + 1, hi) : go(lo, mid - 1);
  };
  return go(0, nums.length - 1);
}
`,
    },
  ],
  edgeCases,
  // Sorted evens with an odd target: absent, so every search runs to the bottom.
  generate: (n, random) => [Array.from({ length: n }, (_, i) => 2 * i), 2 * Math.floor(random() * n) + 1],
};
