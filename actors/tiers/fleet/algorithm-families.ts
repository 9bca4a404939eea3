import type { AlgorithmFamily } from './algorithm-family.ts';
import { binarySearch } from './families/binary-search.ts';
import { climbingStairs } from './families/climbing-stairs.ts';
import { longestCommonPrefix } from './families/longest-common-prefix.ts';
import { maximumSubarray } from './families/maximum-subarray.ts';
import { mergeIntervals } from './families/merge-intervals.ts';
import { moveZeroes } from './families/move-zeroes.ts';
import { singleNumber } from './families/single-number.ts';
import { stockProfit } from './families/stock-profit.ts';
import { twoSum } from './families/two-sum.ts';
import { validParentheses } from './families/valid-parentheses.ts';

/** Every family the offline js-solver knows, in the order ties are broken. */
export const ALGORITHM_FAMILIES: readonly AlgorithmFamily[] = [
  binarySearch,
  twoSum,
  maximumSubarray,
  validParentheses,
  climbingStairs,
  mergeIntervals,
  longestCommonPrefix,
  stockProfit,
  singleNumber,
  moveZeroes,
];
