import fc from 'fast-check';
import type { TestCase } from '../../../protocol/tiers/problem.ts';

/**
 * Random instances of each js-solver family, with expected values from a reference written here,
 * independently of the templates (brute force, or another method).
 */

const int = (min = -1000, max = 1000) => fc.integer({ min, max });

function binarySearchCase(): fc.Arbitrary<TestCase> {
  return fc.tuple(fc.uniqueArray(int(), { maxLength: 40 }), int(), fc.nat()).map(([values, other, pick]) => {
    const nums = [...values].sort((a, b) => a - b);
    const target = nums.length > 0 && pick % 2 === 0 ? nums[pick % nums.length]! : other;
    return { input: [nums, target], expected: nums.indexOf(target) };
  });
}

function twoSumCase(): fc.Arbitrary<TestCase> {
  return fc
    .tuple(fc.uniqueArray(int(-50, 50), { minLength: 2, maxLength: 30 }), fc.nat(), fc.nat())
    .map(([nums, a, b]) => {
      const i = a % nums.length;
      const j = (i + 1 + (b % (nums.length - 1))) % nums.length;
      const target = nums[i]! + nums[j]!;
      const pairs: [number, number][] = [];
      for (let x = 0; x < nums.length; x++)
        for (let y = x + 1; y < nums.length; y++) if (nums[x]! + nums[y]! === target) pairs.push([x, y]);
      return { nums, target, pairs };
    })
    .filter(({ pairs }) => pairs.length === 1) // the problem promises exactly one solution
    .map(({ nums, target, pairs }) => ({ input: [nums, target], expected: pairs[0]! }));
}

function maxSubarrayCase(): fc.Arbitrary<TestCase> {
  return fc.array(int(-100, 100), { minLength: 1, maxLength: 40 }).map((nums) => {
    let best = -Infinity;
    for (let i = 0; i < nums.length; i++) {
      let sum = 0;
      for (let j = i; j < nums.length; j++) best = Math.max(best, (sum += nums[j]!));
    }
    return { input: [nums], expected: best };
  });
}

/** Valid by construction half the time (nested random pairs), else a random bracket string. */
function bracketsCase(): fc.Arbitrary<TestCase> {
  const balanced: fc.Arbitrary<string> = fc.letrec<{ s: string }>((tie) => ({
    s: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constant(''),
      fc
        .tuple(fc.constantFrom('()', '[]', '{}'), tie('s'), tie('s'))
        .map(([p, inner, rest]) => p[0] + inner + p[1] + rest),
    ),
  })).s;
  const any = fc.array(fc.constantFrom(...'()[]{}'), { maxLength: 12 }).map((cs) => cs.join(''));
  return fc.oneof(balanced, any).map((s) => {
    const stack: string[] = [];
    let valid = true;
    for (const c of s) {
      if ('([{'.includes(c)) stack.push(c);
      else if (stack.pop() !== { ')': '(', ']': '[', '}': '{' }[c]) valid = false;
    }
    return { input: [s], expected: valid && stack.length === 0 };
  });
}

function climbCase(): fc.Arbitrary<TestCase> {
  return fc.integer({ min: 1, max: 45 }).map((n) => {
    const ways = [1, 1];
    for (let i = 2; i <= n; i++) ways.push(ways[i - 1]! + ways[i - 2]!);
    return { input: [n], expected: ways[n]! };
  });
}

/** The union on a grid of half steps: touching intervals join, [1,2] and [3,4] stay apart. */
function mergeCase(): fc.Arbitrary<TestCase> {
  return fc.array(fc.tuple(fc.nat(30), fc.nat(6)), { minLength: 1, maxLength: 20 }).map((raw) => {
    const intervals = raw.map(([start, width]) => [start, start + width]);
    const covered = new Array(80).fill(false);
    for (const [s, e] of intervals) for (let p = 2 * s!; p <= 2 * e!; p++) covered[p] = true;
    const merged: number[][] = [];
    for (let p = 0; p < covered.length; p++) {
      if (covered[p] && !covered[p - 1]) merged.push([p / 2, p / 2]);
      if (covered[p]) merged[merged.length - 1]![1] = p / 2;
    }
    return { input: [intervals], expected: merged };
  });
}

function prefixCase(): fc.Arbitrary<TestCase> {
  const word = fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 6 }).map((cs) => cs.join(''));
  return fc.tuple(word, fc.array(word, { minLength: 1, maxLength: 8 })).map(([stem, tails]) => {
    const strs = tails.map((tail) => stem + tail);
    let prefix = '';
    for (let i = 0; strs.every((s) => i < s.length && s[i] === strs[0]![i]); i++) prefix += strs[0]![i];
    return { input: [strs], expected: prefix };
  });
}

function stockCase(): fc.Arbitrary<TestCase> {
  return fc.array(fc.nat(1000), { minLength: 1, maxLength: 40 }).map((prices) => {
    let best = 0;
    for (let i = 0; i < prices.length; i++)
      for (let j = i + 1; j < prices.length; j++) best = Math.max(best, prices[j]! - prices[i]!);
    return { input: [prices], expected: best };
  });
}

function singleNumberCase(): fc.Arbitrary<TestCase> {
  return fc
    .tuple(
      fc.uniqueArray(int(-100_000, 100_000), { minLength: 1, maxLength: 15 }),
      fc.array(fc.nat(), { minLength: 31, maxLength: 31 }),
    )
    .map(([values, keys]) => {
      const [single, ...paired] = values;
      const nums = [single!, ...paired, ...paired];
      const order = nums.map((v, i) => ({ v, key: keys[i % keys.length]! + i / 100 })).sort((a, b) => a.key - b.key);
      return { input: [order.map((o) => o.v)], expected: single! };
    });
}

function moveZeroesCase(): fc.Arbitrary<TestCase> {
  return fc.array(fc.oneof(fc.constant(0), int(-9, 9)), { maxLength: 30 }).map((nums) => {
    const kept = nums.filter((v) => v !== 0);
    return { input: [nums], expected: [...kept, ...nums.filter((v) => v === 0)] };
  });
}

/** Per family id: an arbitrary test case with its reference answer. */
export const FAMILY_CASES: Record<string, () => fc.Arbitrary<TestCase>> = {
  'binary-search': binarySearchCase,
  'two-sum': twoSumCase,
  'maximum-subarray': maxSubarrayCase,
  'valid-parentheses': bracketsCase,
  'climbing-stairs': climbCase,
  'merge-intervals': mergeCase,
  'longest-common-prefix': prefixCase,
  'stock-profit': stockCase,
  'single-number': singleNumberCase,
  'move-zeroes': moveZeroesCase,
};

/** Test cases for one problem: distinct inputs (so the generated tests never contradict each other). */
export function testCasesOf(id: string, maxLength = 40): fc.Arbitrary<TestCase[]> {
  return fc.uniqueArray(FAMILY_CASES[id]!(), { minLength: 3, maxLength, selector: (c) => JSON.stringify(c.input) });
}
