import type { AlgorithmFamily, EdgeCase } from '../algorithm-family.ts';
import type { ConstraintHints } from '../constraint-hints.ts';
import { largeLength, oneCall, valueRange, wantsNegatives } from '../edge-case-kit.ts';
import { isInt, isIntArray, preview } from '../value-shapes.ts';

const PROPERTY = 'result occurs in nums exactly once (every other value occurs twice)';

function edgeCases(hints: ConstraintHints): EdgeCase[] {
  const { min, max } = valueRange(hints, { min: -30_000, max: 30_000 });
  const make = (name: string, kind: EdgeCase['kind'], nums: number[]) =>
    oneCall(name, kind, [nums], PROPERTY, (actual) => {
      if (!isInt(actual)) return `returned ${preview(actual)}, not an integer`;
      const count = nums.filter((v) => v === actual).length;
      return count === 1 ? null : `returned ${actual}, which occurs ${count} times`;
    });
  const cases = [make('one element', 'single', [Math.min(max, 1)])];
  cases.push(make('single one first', 'bounds', [4, 1, 2, 1, 2]));
  cases.push(make('single one last', 'bounds', [2, 2, 1, 1, 4]));
  cases.push(make('zero is the single one', 'typical', [5, 0, 5]));
  if (wantsNegatives(hints) && min < 0) cases.push(make('negative single one', 'negatives', [-1, 3, 3, -7, -7]));
  if (min < max) cases.push(make('values at both bounds', 'bounds', [min, max, min]));
  const pairs = Math.floor((largeLength(hints, 999) - 1) / 2);
  const nums = Array.from({ length: pairs }, (_, i) => i + 1);
  cases.push(make(`${2 * pairs + 1} elements`, 'large', [...nums, pairs + 1, ...nums.reverse()]));
  return cases;
}

/** The one value that appears once when every other appears twice (LeetCode 136). */
export const singleNumber: AlgorithmFamily = {
  id: 'single-number',
  title: 'Single number',
  classic: 'LeetCode 136 (Single Number)',
  names: ['singlenumber', 'findsingle', 'findunique', 'uniquenumber', 'lonelyinteger'],
  nameHints: ['single', 'unique', 'lonely', 'once'],
  keywords: ['appears once', 'appears twice', 'exactly once', 'twice', 'single', 'xor'],
  arity: 1,
  accepts: ({ input, expected }) =>
    isIntArray(input[0]) &&
    input[0].length % 2 === 1 &&
    isInt(expected) &&
    input[0].filter((v) => v === expected).length === 1,
  templates: [
    {
      name: 'xor',
      description: 'pairs cancel under XOR (32-bit integers)',
      complexity: 'O(n)',
      source: `function __fn__(nums) {
  let x = 0;
  for (const v of nums) x ^= v;
  return x;
}
`,
    },
    {
      name: 'count-map',
      description: 'count each value, return the one seen once (any number size)',
      complexity: 'O(n)',
      source: `function __fn__(nums) {
  const counts = new Map();
  for (const v of nums) counts.set(v, (counts.get(v) || 0) + 1);
  for (const [v, c] of counts) if (c === 1) return v;
  return null;
}
`,
    },
  ],
  edgeCases,
  generate: (n) => {
    const half = Array.from({ length: Math.floor(n / 2) }, (_, i) => i + 1);
    return [[...half, 0, ...half]];
  },
};
