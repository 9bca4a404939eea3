import type { AlgorithmFamily, EdgeCase } from '../algorithm-family.ts';
import type { ConstraintHints } from '../constraint-hints.ts';
import { largeLength, oneCall, spreadInts, valueRange, wantsEmpty, wantsNegatives } from '../edge-case-kit.ts';
import { isIntArray, preview } from '../value-shapes.ts';

const PROPERTY = 'result has the same length: the non-zero values in their original order, then only zeros';

function moveProblem(nums: number[], actual: unknown): string | null {
  if (!isIntArray(actual)) return `returned ${preview(actual)}, not an array of integers (return nums after moving)`;
  if (actual.length !== nums.length) return `returned ${actual.length} values for ${nums.length}`;
  const kept = nums.filter((v) => v !== 0);
  const at = actual.findIndex((v, i) => (i < kept.length ? v !== kept[i] : v !== 0));
  return at === -1
    ? null
    : `returned ${preview(actual)}: position ${at} should hold ${at < kept.length ? kept[at] : 0}`;
}

function edgeCases(hints: ConstraintHints): EdgeCase[] {
  const { min, max } = valueRange(hints, { min: -1000, max: 1000 });
  const make = (name: string, kind: EdgeCase['kind'], nums: number[]) =>
    oneCall(name, kind, [nums], PROPERTY, (actual) => moveProblem(nums, actual));
  const cases: EdgeCase[] = [];
  if (wantsEmpty(hints, true)) cases.push(make('empty array', 'empty', []));
  cases.push(make('single zero', 'single', [0]));
  cases.push(make('single non-zero', 'single', [Math.min(max, 1)]));
  cases.push(make('no zeros', 'not_found', [1, 2, 3]));
  cases.push(make('only zeros', 'duplicates', [0, 0, 0]));
  cases.push(make('zeros first', 'bounds', [0, 0, 1, 2]));
  cases.push(make('classic', 'typical', [0, 1, 0, 3, 12]));
  if (wantsNegatives(hints) && min < 0) cases.push(make('negatives kept in order', 'negatives', [-1, 0, -3, 0, 2]));
  if (min < max) cases.push(make('values at both bounds', 'bounds', [max, 0, min]));
  const length = largeLength(hints, 1000);
  cases.push(
    make(
      `${length} elements`,
      'large',
      spreadInts(length, -3, 3).map((v) => (v < 0 ? 0 : v)),
    ),
  );
  return cases;
}

/** Move every zero to the end, keeping the order of the rest (LeetCode 283; returns the array). */
export const moveZeroes: AlgorithmFamily = {
  id: 'move-zeroes',
  title: 'Move zeroes',
  classic: 'LeetCode 283 (Move Zeroes), returning the array',
  names: ['movezeroes', 'movezeros', 'zeroestoend', 'pushzeros', 'pushzeroestoend'],
  nameHints: ['zero'],
  keywords: ['zero', 'end', 'relative order', 'in-place', 'in place'],
  arity: 1,
  accepts: ({ input, expected }) => isIntArray(input[0]) && isIntArray(expected) && expected.length === input[0].length,
  templates: [
    {
      name: 'two-pointer',
      description: 'write non-zeros forward in place, fill the tail with zeros',
      complexity: 'O(n)',
      source: `function __fn__(nums) {
  let write = 0;
  for (let read = 0; read < nums.length; read++) {
    if (nums[read] !== 0) nums[write++] = nums[read];
  }
  while (write < nums.length) nums[write++] = 0;
  return nums;
}
`,
    },
    {
      name: 'filter-concat',
      description: 'a new array: the non-zeros, then the zeros',
      complexity: 'O(n)',
      source: `function __fn__(nums) {
  const kept = nums.filter((v) => v !== 0);
  return kept.concat(new Array(nums.length - kept.length).fill(0));
}
`,
    },
  ],
  edgeCases,
  generate: (n) => [Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 0 : i))],
};
