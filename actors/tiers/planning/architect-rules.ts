import { CONSTRAINT_RULES, statedComplexity } from './constraint-rules.ts';
import type { Problem } from '../../../protocol/tiers/problem.ts';
import { RACING_STRATEGIES, type AggregationStrategy, type PlannedSubtask } from './plan.ts';

/** One row of the Architect's rule table, as the README shows it. */
export interface ArchitectRule {
  id: string;
  when: string;
  then: string;
}

/** How many redundant solve attempts a racing strategy plans (variants 0, 1, 2). */
export const REDUNDANT_SOLVES = 3;

/**
 * The offline Architect's rule table, in the order it applies: the strategy, the task graph, the
 * derived constraints ({@link CONSTRAINT_RULES}) and the one revision. Data, so the README shows
 * exactly what `offlineArchitect` does.
 */
export const ARCHITECT_RULES: readonly ArchitectRule[] = [
  {
    id: 'strategy',
    when: 'always',
    then: "the user's `aggregation_strategy`, else `all_success` (dependent subtasks)",
  },
  {
    id: 'solve',
    when: 'the strategy is `all_success`',
    then: '`solve`: `execute_code` for `js-solver`, every constraint, no dependency',
  },
  {
    id: 'redundant-solves',
    when: 'the strategy races or votes (`first_success`, `any_success`, `majority`)',
    then: '`solve-0`, `solve-1`, `solve-2`: three parallel `execute_code` attempts (task_data.variant 0, 1, 2), and no verification subtasks: each attempt runs the tests itself',
  },
  {
    id: 'design-tests',
    when: 'the strategy is `all_success`',
    then: '`tests`: `design_tests` for `test-designer`, after `solve`, with the edge-case constraints',
  },
  {
    id: 'review-complexity',
    when: 'the strategy is `all_success`',
    then: '`review`: `review_complexity` for `reviewer`, after `solve`, claiming the stated complexity (task_data.claimed_complexity; null when none is stated, and the reviewer asks: see CLARIFICATION_RULES)',
  },
  ...CONSTRAINT_RULES.map(({ id, when, then }) => ({ id: `constraint:${id}`, when, then: `add ${then}` })),
  {
    id: 'revise-solve',
    when: 'revising (once) after a PARTIAL whose majority failed, and a solve attempt failed (or no failed key is named)',
    then: 'switch to `any_success` with three redundant solve attempts',
  },
  {
    id: 'keep-solution-failures',
    when: 'a verification subtask failed because of the solution (`error_type` `solution_*`, `property_violated` or `tests_failed`)',
    then: 'no revision: the PARTIAL goes up as it is (a verifier that caught the solution is never dropped)',
  },
  {
    id: 'revise-optional',
    when: 'revising (once), and only verification subtasks (`tests`, `review`) failed, none because of the solution',
    then: 'drop the failed verification subtasks, keep the rest and the strategy',
  },
];

/**
 * Whether a verifier's failure was the solution's fault (rule `keep-solution-failures`): the
 * sandbox stopped the solution (`solution_*`), or it broke a property or a test.
 *
 * @example
 * failedBySolution('solution_timeout'); // true
 * failedBySolution('sandbox_error'); // false
 */
export function failedBySolution(errorType: string | null | undefined): boolean {
  return (
    typeof errorType === 'string' &&
    (errorType.startsWith('solution_') || errorType === 'property_violated' || errorType === 'tests_failed')
  );
}

/** The task types a plan may drop on revision: they check a solution, they do not make it. */
export const OPTIONAL_TASK_TYPES: ReadonlySet<string> = new Set(['design_tests', 'review_complexity']);

/** The strategy rule: the user's choice, else `all_success`. */
export function chooseStrategy(userChoice: AggregationStrategy | undefined): AggregationStrategy {
  return userChoice ?? 'all_success';
}

const EDGE_CASE = /empty|single|not found|negative|duplicate|bound|limit|overflow|null|zero/i;

function solveSubtask(problem: Problem, constraints: string[], key: string, variant?: number): PlannedSubtask {
  const tests = problem.test_cases.length;
  return {
    key,
    task_type: 'execute_code',
    objective: `Write ${problem.function_name} in ${problem.language} so that its ${tests} test case${tests === 1 ? '' : 's'} pass`,
    constraints,
    specialist_hint: 'js-solver',
    depends_on: [],
    task_data: {
      function_name: problem.function_name,
      language: problem.language,
      test_count: tests,
      ...(variant === undefined ? {} : { variant }),
    },
  };
}

/** The task graph of the rules `solve`/`redundant-solves`, `design-tests` and `review-complexity`. */
export function plannedSubtasks(
  problem: Problem,
  constraints: string[],
  strategy: AggregationStrategy,
): PlannedSubtask[] {
  if (RACING_STRATEGIES.has(strategy)) {
    return Array.from({ length: REDUNDANT_SOLVES }, (_, variant) =>
      solveSubtask(problem, constraints, `solve-${variant}`, variant),
    );
  }
  const complexity = statedComplexity(problem.statement) ?? null;
  return [
    solveSubtask(problem, constraints, 'solve'),
    {
      key: 'tests',
      task_type: 'design_tests',
      objective: `Design edge-case tests for ${problem.function_name} from the constraints and check them by the problem's properties`,
      constraints: constraints.filter((c) => EDGE_CASE.test(c)),
      specialist_hint: 'test-designer',
      depends_on: ['solve'],
      task_data: { function_name: problem.function_name, language: problem.language },
    },
    {
      key: 'review',
      task_type: 'review_complexity',
      objective:
        complexity === null
          ? `Check ${problem.function_name}'s time complexity by timing it over doubling input sizes`
          : `Check that ${problem.function_name} runs in ${complexity} by timing it over doubling input sizes`,
      constraints: constraints.filter((c) => /complexity|O\(/i.test(c)),
      specialist_hint: 'reviewer',
      depends_on: ['solve'],
      task_data: { function_name: problem.function_name, language: problem.language, claimed_complexity: complexity },
    },
  ];
}
