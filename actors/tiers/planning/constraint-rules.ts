import type { Problem } from '../../../protocol/tiers/problem.ts';

/** A rule that derives a constraint from a problem: `when` and `then` are what the README shows. */
export interface ConstraintRule {
  id: string;
  when: string;
  then: string;
  derive(problem: Problem): string | undefined;
}

const arraysIn = (problem: Problem): unknown[][] =>
  problem.test_cases.flatMap((test) => test.input.filter((argument) => Array.isArray(argument)));
const numbersIn = (problem: Problem): number[] =>
  problem.test_cases.flatMap((test) =>
    test.input
      .flatMap((argument) => (Array.isArray(argument) ? argument : [argument]))
      .filter((v) => typeof v === 'number'),
  );

/** Big-O written in the statement, or said in words ("logarithmic", "linear time"). */
const COMPLEXITY_WORDS: readonly [RegExp, string][] = [
  [/\blogarithmic\b/i, 'O(log n)'],
  [/\blinear time\b/i, 'O(n)'],
  [/\bconstant time\b/i, 'O(1)'],
  [/\bquadratic\b/i, 'O(n^2)'],
];

/** The complexity the statement asks for, normalised (`O(log n)`), or undefined. */
export function statedComplexity(statement: string): string | undefined {
  const written = /O\(\s*([^()]*(?:\([^()]*\)[^()]*)*)\)/.exec(statement);
  if (written?.[1]) return `O(${written[1].replace(/\s+/g, ' ').trim()})`;
  return COMPLEXITY_WORDS.find(([pattern]) => pattern.test(statement))?.[1];
}

/**
 * The Architect's constraint rules, in order. Each reads only the statement and the test cases
 * (never `problem_id`), and adds its constraint when the user has not written it already.
 */
export const CONSTRAINT_RULES: readonly ConstraintRule[] = [
  {
    id: 'empty-input',
    when: 'a test case passes an empty array (or empty string)',
    then: '"Must handle empty arrays" (or "... empty strings")',
    derive: (problem) => {
      if (arraysIn(problem).some((a) => a.length === 0)) return 'Must handle empty arrays';
      const strings = problem.test_cases.flatMap((t) => t.input.filter((v) => typeof v === 'string'));
      return strings.includes('') ? 'Must handle empty strings' : undefined;
    },
  },
  {
    id: 'single-element',
    when: 'a test case passes a one-element array',
    then: '"Must handle single-element arrays"',
    derive: (problem) =>
      arraysIn(problem).some((a) => a.length === 1) ? 'Must handle single-element arrays' : undefined,
  },
  {
    id: 'not-found',
    when: 'a test expects -1 and the statement says -1 or "not found" / "does not exist"',
    then: '"Return -1 if not found"',
    derive: (problem) =>
      problem.test_cases.some((t) => t.expected === -1) &&
      /-1|not found|not exist|doesn't exist/i.test(problem.statement)
        ? 'Return -1 if not found'
        : undefined,
  },
  {
    id: 'negative-numbers',
    when: 'a test case passes a negative number (alone or in an array)',
    then: '"Must handle negative numbers"',
    derive: (problem) => (numbersIn(problem).some((n) => n < 0) ? 'Must handle negative numbers' : undefined),
  },
  {
    id: 'duplicates',
    when: 'an array argument holds a value twice',
    then: '"Must handle duplicate values"',
    derive: (problem) =>
      arraysIn(problem).some((a) => new Set(a.map((v) => JSON.stringify(v))).size < a.length)
        ? 'Must handle duplicate values'
        : undefined,
  },
  {
    id: 'complexity',
    when: 'the statement writes a big-O bound ("O(log n)") or says it ("logarithmic", "linear time")',
    then: '"O(log n) time complexity required" (the stated bound)',
    derive: (problem) => {
      const complexity = statedComplexity(problem.statement);
      return complexity && `${complexity} time complexity required`;
    },
  },
];

const normalise = (constraint: string) => constraint.trim().toLowerCase().replace(/\s+/g, ' ');

/** The user's constraints, then each derived one the user did not already write (case and spaces ignored). */
export function deriveConstraints(problem: Problem, userConstraints: readonly string[]): string[] {
  const constraints = [...userConstraints];
  const seen = new Set(constraints.map(normalise));
  for (const rule of CONSTRAINT_RULES) {
    const derived = rule.derive(problem);
    if (derived === undefined || seen.has(normalise(derived))) continue;
    seen.add(normalise(derived));
    constraints.push(derived);
  }
  return constraints;
}
