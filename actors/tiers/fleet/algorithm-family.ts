import type { ConstraintHints } from './constraint-hints.ts';
import type { TestCase } from './specialist-result.ts';

/** One way to solve a family's problem: a JS source string the sandbox runs. */
export interface SolutionTemplate {
  /** Unique within its family: `iterative`, `recursive`, ... */
  name: string;
  /** What this template does, in a line (and which classic variant it answers). */
  description: string;
  /** Its time complexity in the input size, e.g. `O(log n)`. */
  complexity: string;
  /** JS source defining `function __fn__(...)`; `renderTemplate` names it as the problem asks. */
  source: string;
}

/** What kind of edge an edge case probes (the test-designer reports it). */
export type EdgeKind = 'empty' | 'single' | 'not_found' | 'bounds' | 'duplicates' | 'negatives' | 'typical' | 'large';

/**
 * An edge case of the test-designer: inputs and the property of the problem its results must
 * have. Never an invented expected value: `check` tests the answer against the definition.
 */
export interface EdgeCase {
  name: string;
  kind: EdgeKind;
  /** Argument lists to call the solution with: the case itself first, then any related inputs its property needs. */
  calls: unknown[][];
  /** The property checked, in words. */
  property: string;
  /** `null` when the property holds for these results (one per call), else what is wrong. */
  check(results: unknown[]): string | null;
}

/**
 * A classic problem family the offline js-solver knows: how to recognise it (function names,
 * statement keywords, arity and test shapes; never a problem id), its solution templates, its
 * edge cases and properties (test-designer) and a worst-case input generator (reviewer).
 */
export interface AlgorithmFamily {
  id: string;
  title: string;
  /** The classic problem(s) it answers, e.g. `LeetCode 704`. */
  classic: string;
  /** Function names that name the family, normalised (lowercase letters and digits only). */
  names: readonly string[];
  /** Fragments of a normalised function name that hint at the family. */
  nameHints: readonly string[];
  /** Lowercase statement phrases that hint at the family; each one found counts once. */
  keywords: readonly string[];
  /** Number of arguments. */
  arity: number;
  /** Does a test case have this family's shape (types of the inputs and of `expected`)? */
  accepts(testCase: TestCase): boolean;
  /** At least one; the solver runs them against the tests and keeps the first that passes all. */
  templates: readonly SolutionTemplate[];
  /**
   * The test-designer's edge cases, shaped by what the constraints say; `examples` (the problem's
   * own tests) settle conventions such as 0- or 1-based indices, never expected values.
   */
  edgeCases(hints: ConstraintHints, examples: readonly TestCase[]): EdgeCase[];
  /** The reviewer's input of size `n` (a worst case for the family's usual solutions). */
  generate(n: number, random: () => number): unknown[];
}

const PLACEHOLDER = /__fn__/g;

/**
 * A template's source with its function named `functionName`.
 *
 * @example renderTemplate(binarySearch.templates[0], 'search') // "function search(nums, target) {..."
 */
export function renderTemplate(template: SolutionTemplate, functionName: string): string {
  return template.source.replace(PLACEHOLDER, functionName);
}
