import type { Problem } from '../../../../../protocol/tiers/problem.ts';

/**
 * One realistic problem per family, as a user would submit it (LeetCode-style statement, the
 * usual function name or a less usual one, the problem's examples as tests). `problem_id` is
 * absent or misleading on purpose: recognition must not read it.
 */
export const FAMILY_PROBLEMS: Record<string, Problem> = {
  'binary-search': {
    problem_id: 'leetcode-1',
    statement:
      'Given an array of integers nums which is sorted in ascending order, and an integer target, write a function to search target in nums. If target exists, then return its index. Otherwise, return -1. You must write an algorithm with O(log n) runtime complexity.',
    function_name: 'search',
    language: 'javascript',
    test_cases: [
      { input: [[-1, 0, 3, 5, 9, 12], 9], expected: 4 },
      { input: [[-1, 0, 3, 5, 9, 12], 2], expected: -1 },
      { input: [[5], 5], expected: 0 },
      { input: [[], 3], expected: -1 },
      { input: [[1, 4, 7, 10], 10], expected: 3 },
    ],
  },
  'two-sum': {
    statement:
      'Given an array of integers nums and an integer target, return indices of the two numbers such that they add up to target. You may assume that each input would have exactly one solution, and you may not use the same element twice.',
    function_name: 'twoSum',
    language: 'javascript',
    test_cases: [
      { input: [[2, 7, 11, 15], 9], expected: [0, 1] },
      { input: [[3, 2, 4], 6], expected: [1, 2] },
      { input: [[3, 3], 6], expected: [0, 1] },
    ],
  },
  'maximum-subarray': {
    problem_id: 'leetcode-704',
    statement: 'Given an integer array nums, find the subarray with the largest sum, and return its sum.',
    function_name: 'maxSubArray',
    language: 'javascript',
    test_cases: [
      { input: [[-2, 1, -3, 4, -1, 2, 1, -5, 4]], expected: 6 },
      { input: [[1]], expected: 1 },
      { input: [[5, 4, -1, 7, 8]], expected: 23 },
    ],
  },
  'valid-parentheses': {
    statement:
      "Given a string s containing just the characters '(', ')', '{', '}', '[' and ']', determine if the input string is valid: open brackets must be closed by the same type of brackets, in the correct order.",
    function_name: 'isValid',
    language: 'javascript',
    test_cases: [
      { input: ['()'], expected: true },
      { input: ['()[]{}'], expected: true },
      { input: ['(]'], expected: false },
      { input: ['([])'], expected: true },
    ],
  },
  'climbing-stairs': {
    problem_id: 'two-sum',
    statement:
      'You are climbing a staircase. It takes n steps to reach the top. Each time you can either climb 1 or 2 steps. In how many distinct ways can you climb to the top?',
    function_name: 'climbStairs',
    language: 'javascript',
    test_cases: [
      { input: [2], expected: 2 },
      { input: [3], expected: 3 },
      { input: [10], expected: 89 },
    ],
  },
  'merge-intervals': {
    statement:
      'Given an array of intervals where intervals[i] = [start, end], merge all overlapping intervals, and return an array of the non-overlapping intervals that cover all the intervals in the input.',
    function_name: 'merge',
    language: 'javascript',
    test_cases: [
      {
        input: [
          [
            [1, 3],
            [2, 6],
            [8, 10],
            [15, 18],
          ],
        ],
        expected: [
          [1, 6],
          [8, 10],
          [15, 18],
        ],
      },
      {
        input: [
          [
            [1, 4],
            [4, 5],
          ],
        ],
        expected: [[1, 5]],
      },
      {
        input: [
          [
            [4, 7],
            [1, 4],
          ],
        ],
        expected: [[1, 7]],
      },
    ],
  },
  'longest-common-prefix': {
    statement:
      'Write a function to find the longest common prefix string amongst an array of strings. If there is no common prefix, return an empty string "".',
    function_name: 'longestCommonPrefix',
    language: 'javascript',
    test_cases: [
      { input: [['flower', 'flow', 'flight']], expected: 'fl' },
      { input: [['dog', 'racecar', 'car']], expected: '' },
      { input: [['interview']], expected: 'interview' },
    ],
  },
  'stock-profit': {
    statement:
      'You are given an array prices where prices[i] is the price of a given stock on the ith day. You want to maximize your profit by choosing a single day to buy one stock and choosing a different day in the future to sell that stock. Return the maximum profit you can achieve from this transaction. If you cannot achieve any profit, return 0.',
    function_name: 'maxProfit',
    language: 'javascript',
    test_cases: [
      { input: [[7, 1, 5, 3, 6, 4]], expected: 5 },
      { input: [[7, 6, 4, 3, 1]], expected: 0 },
      { input: [[2, 4, 1]], expected: 2 },
    ],
  },
  'single-number': {
    problem_id: 'leetcode-53',
    statement:
      'Given a non-empty array of integers nums, every element appears twice except for one. Find that single one. You must implement a solution with linear runtime complexity and use only constant extra space.',
    function_name: 'singleNumber',
    language: 'javascript',
    test_cases: [
      { input: [[2, 2, 1]], expected: 1 },
      { input: [[4, 1, 2, 1, 2]], expected: 4 },
      { input: [[1]], expected: 1 },
    ],
  },
  'move-zeroes': {
    statement:
      'Given an integer array nums, move all 0s to the end of it while maintaining the relative order of the non-zero elements. Do it in-place and return nums.',
    function_name: 'moveZeroes',
    language: 'javascript',
    test_cases: [
      { input: [[0, 1, 0, 3, 12]], expected: [1, 3, 12, 0, 0] },
      { input: [[0]], expected: [0] },
      { input: [[4, 0, 5]], expected: [4, 5, 0] },
    ],
  },
};

/** The same problems under a neutral function name (`solve`): the statement and tests must carry them. */
export const renamed = (problem: Problem, functionName = 'solve'): Problem => ({
  ...problem,
  function_name: functionName,
});
