import { chooseStrategy, OPTIONAL_TASK_TYPES, plannedSubtasks } from './architect-rules.ts';
import { CONSTRAINT_RULES, deriveConstraints } from './constraint-rules.ts';
import type { ArchitectBrain, ArchitectInput, Plan } from './plan.ts';

/** The constraint rules that fired on this problem, for the rationale. */
function firedConstraintRules(input: ArchitectInput): string[] {
  return CONSTRAINT_RULES.filter((rule) => rule.derive(input.problem) !== undefined).map((rule) => rule.id);
}

function firstPlan(input: ArchitectInput): Plan {
  const strategy = chooseStrategy(input.aggregation_strategy);
  const constraints = deriveConstraints(input.problem, input.constraints);
  const subtasks = plannedSubtasks(input.problem, constraints, strategy);
  const fired = firedConstraintRules(input);
  return {
    objective: input.objective,
    constraints,
    subtasks,
    aggregation_strategy: strategy,
    rationale:
      `Strategy ${strategy} (${input.aggregation_strategy ? "the user's choice" : 'the default for dependent subtasks'}); ` +
      `${subtasks.length} subtasks (${subtasks.map((s) => s.key).join(', ')}); ` +
      `derived constraints: ${fired.length === 0 ? 'none' : fired.join(', ')}.`,
  };
}

/**
 * The revision rules (`revise-solve`, `revise-optional`): a failed solve gets three redundant
 * attempts under `any_success`; failed verification subtasks are dropped.
 */
function revisedPlan(input: ArchitectInput, revision: NonNullable<ArchitectInput['revision']>): Plan {
  const { previous, failed_keys: failedKeys } = revision;
  const failed = new Set(failedKeys);
  const failedSolve = previous.subtasks.some((s) => failed.has(s.key) && !OPTIONAL_TASK_TYPES.has(s.task_type));
  if (failedSolve || failed.size === 0) {
    return {
      objective: previous.objective,
      constraints: previous.constraints,
      subtasks: plannedSubtasks(input.problem, previous.constraints, 'any_success'),
      aggregation_strategy: 'any_success',
      rationale: `Revised once (rule revise-solve) after: ${revision.aggregate_summary}. The solve failed under ${previous.aggregation_strategy}, so three redundant attempts race under any_success.`,
    };
  }
  const kept = previous.subtasks.filter((s) => !failed.has(s.key));
  return {
    ...previous,
    // A kept subtask never waits on a dropped one (only optional subtasks are dropped, and nothing depends on them here).
    subtasks: kept.map((s) => ({ ...s, depends_on: s.depends_on.filter((d) => !failed.has(d)) })),
    rationale: `Revised once (rule revise-optional) after: ${revision.aggregate_summary}. Dropped the failed verification subtasks ${[...failed].join(', ')}; kept ${kept.map((s) => s.key).join(', ')} under ${previous.aggregation_strategy}.`,
  };
}

/**
 * The offline ABSTRACT_ARCHITECT: plans by the documented rule table (`ARCHITECT_RULES`), with no
 * model and no tokens. The same input always gives the same plan.
 *
 * @example
 * const plan = await offlineArchitect.plan({ objective: 'Solve leetcode-704', problem, constraints: [] });
 * plan.subtasks.map((s) => s.key); // ['solve', 'tests', 'review']
 */
export const offlineArchitect: ArchitectBrain = {
  plan(input) {
    return Promise.resolve(input.revision ? revisedPlan(input, input.revision) : firstPlan(input));
  },
};
