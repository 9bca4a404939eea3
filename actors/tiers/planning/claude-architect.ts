import type { AnthropicAccess } from '../../models/model-backends.ts';
import { createAnthropicProvider } from '../../models/anthropic-provider.ts';
import { getModelConfig } from '../../models/model-registry.ts';
import { ARCHITECT_RULES } from './architect-rules.ts';
import { callForcedTool, ModelAnswerError } from '../../models/forced-tool-call.ts';
import { PLANNED_TASK_TYPES, PlanSchema, type ArchitectBrain, type ArchitectInput } from './plan.ts';

/** The most test cases shown to the model; the rest are only counted (the solver runs them all). */
const SHOWN_TESTS = 20;

const SYSTEM = [
  'You are the ABSTRACT_ARCHITECT of a tiered agent system (spec 002). You turn a programming problem into a plan:',
  'the objective, the constraints (keep the user\'s, add the ones the tests and statement imply, e.g. "Must handle empty arrays"),',
  `a DAG of subtasks whose task_type is one of ${PLANNED_TASK_TYPES.join(', ')} (specialists: js-solver, test-designer, reviewer),`,
  'and an aggregation_strategy (all_success, any_success, majority, first_success). Subtask keys are lower-case and unique;',
  'depends_on names keys of the same plan. When asked to revise, change the strategy or drop failed optional subtasks.',
  `The offline rule table, for reference: ${ARCHITECT_RULES.map((r) => `${r.id}: when ${r.when}, ${r.then}`).join('; ')}.`,
  'Answer only by calling submit_plan.',
].join(' ');

function promptOf(input: ArchitectInput): string {
  const { problem } = input;
  return JSON.stringify({
    objective: input.objective,
    problem: {
      statement: problem.statement,
      function_name: problem.function_name,
      language: problem.language,
      test_cases: problem.test_cases.slice(0, SHOWN_TESTS),
      test_case_count: problem.test_cases.length,
    },
    constraints: input.constraints,
    aggregation_strategy: input.aggregation_strategy ?? null,
    revision: input.revision ?? null,
  });
}

/**
 * The ABSTRACT_ARCHITECT on Claude: one forced `submit_plan` call whose input schema is
 * `PlanSchema`'s, and whose answer is validated by it (a DAG over its own keys, known task types).
 * The user's `aggregation_strategy` stands whatever the model says, but on revision, and the
 * user's constraints are kept first. An invalid
 * answer rejects with `ModelAnswerError`. Reports the call's tokens.
 *
 * @example
 * const architect = backends.choose({ offline: () => offlineArchitect, anthropic: (access) => claudeArchitect(access) });
 */
export function claudeArchitect(access: AnthropicAccess): ArchitectBrain {
  getModelConfig(access.model); // an unknown model is refused now, not after a paid call
  const provider = createAnthropicProvider({ client: access.client });
  return {
    async plan(input, signal) {
      const { value: plan, tokens } = await callForcedTool({
        provider,
        model: access.model,
        system: SYSTEM,
        prompt: promptOf(input),
        tool: {
          name: 'submit_plan',
          description: 'Submit the plan: objective, constraints, subtasks (a DAG), aggregation strategy, rationale.',
          schema: PlanSchema,
        },
        signal,
      });
      const known: readonly string[] = PLANNED_TASK_TYPES;
      const unknown = plan.subtasks.filter((s) => !known.includes(s.task_type));
      if (unknown.length > 0) {
        throw new ModelAnswerError(
          'submit_plan',
          `subtask ${unknown.map((s) => `"${s.key}" has task_type "${s.task_type}"`).join(', ')}, not one of ${known.join(', ')}`,
          tokens,
        );
      }
      const strategy = input.revision
        ? plan.aggregation_strategy
        : (input.aggregation_strategy ?? plan.aggregation_strategy);
      // The user's constraints are never dropped: first, as the offline rules keep them.
      const added = plan.constraints.filter((c) => !input.constraints.includes(c));
      return { ...plan, constraints: [...input.constraints, ...added], aggregation_strategy: strategy, tokens };
    },
  };
}
