import type { Problem } from '../../../protocol/tiers/problem.ts';

/** Spec 002's running example (leetcode-704, binary search), with an empty array and a not-found case. */
export const BINARY_SEARCH: Problem = {
  problem_id: 'leetcode-704',
  statement:
    'Given a sorted array of integers nums and an integer target, return the index of target in nums, or -1 if it is not found. You must write an algorithm with O(log n) runtime complexity.',
  function_name: 'search',
  language: 'javascript',
  test_cases: [
    { input: [[-1, 0, 3, 5, 9, 12], 9], expected: 4 },
    { input: [[-1, 0, 3, 5, 9, 12], 2], expected: -1 },
    { input: [[], 5], expected: -1 },
    { input: [[5], 5], expected: 0 },
  ],
};

/** A problem no rule finds anything in: positive numbers, no empty or single arrays, no bound stated. */
export const PLAIN_SUM: Problem = {
  statement: 'Return the sum of two numbers.',
  function_name: 'add',
  language: 'javascript',
  test_cases: [
    { input: [1, 2], expected: 3 },
    { input: [20, 22], expected: 42 },
  ],
};
