import type { TestCase } from './specialist-result.ts';
import { preview } from './value-shapes.ts';

/** Two test cases with the same input and different expected values. */
export interface Contradiction {
  first: number;
  second: number;
  question: string;
}

/**
 * The first pair of test cases that give one input two expected values (compared as JSON), with
 * the question to ask; null when the tests agree. A real ambiguity: the solver never guesses.
 *
 * @example findContradiction([{ input: [[1], 1], expected: 0 }, { input: [[1], 1], expected: -1 }])?.question
 */
export function findContradiction(testCases: readonly TestCase[]): Contradiction | null {
  const seen = new Map<string, number>();
  for (const [index, testCase] of testCases.entries()) {
    const key = JSON.stringify(testCase.input);
    const earlier = seen.get(key);
    if (earlier === undefined) {
      seen.set(key, index);
      continue;
    }
    const before = testCases[earlier]!.expected;
    if (JSON.stringify(before) === JSON.stringify(testCase.expected)) continue;
    return {
      first: earlier,
      second: index,
      question:
        `Test cases ${earlier} and ${index} give the same input ${preview(testCase.input)} but expect ` +
        `${preview(before)} and ${preview(testCase.expected)}: which one is right? Remove or correct the other.`,
    };
  }
  return null;
}
