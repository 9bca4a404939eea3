import { z } from 'zod';
import type { Problem } from '../../../protocol/tiers/problem.ts';

/**
 * Spec 002's aggregation strategies: `all_success` for dependent subtasks, the other three for
 * redundant attempts (racing, voting).
 */
export const AggregationStrategySchema = z.enum(['all_success', 'any_success', 'majority', 'first_success']);
export type AggregationStrategy = z.infer<typeof AggregationStrategySchema>;

/** The strategies that race or vote over redundant attempts: the solve is planned three times. */
export const RACING_STRATEGIES: ReadonlySet<AggregationStrategy> = new Set([
  'any_success',
  'majority',
  'first_success',
]);

/** The task types the fleet knows (`OFFLINE_SPECIALISTS`' task types). */
export const PLANNED_TASK_TYPES = ['execute_code', 'design_tests', 'review_complexity'] as const;

/** One node of the task graph: what to do, for whom, after what. `key` is unique in its plan. */
export const PlannedSubtaskSchema = z.strictObject({
  key: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'a key is lower-case letters, digits, - and _'),
  task_type: z.string().min(1),
  objective: z.string().min(1),
  constraints: z.array(z.string()),
  specialist_hint: z.string().min(1).nullable(),
  depends_on: z.array(z.string()),
  task_data: z.record(z.string(), z.unknown()),
});
export type PlannedSubtask = z.infer<typeof PlannedSubtaskSchema>;

/** Where a plan's dependencies are not a DAG over its own keys: one message per fault. */
export function planGraphFaults(subtasks: readonly PlannedSubtask[]): string[] {
  const faults: string[] = [];
  const keys = new Set<string>();
  for (const subtask of subtasks) {
    if (keys.has(subtask.key)) faults.push(`subtask key "${subtask.key}" is used twice; keys must be unique`);
    keys.add(subtask.key);
  }
  for (const subtask of subtasks) {
    for (const dependency of subtask.depends_on) {
      if (!keys.has(dependency))
        faults.push(`subtask "${subtask.key}" depends on "${dependency}", which is not a subtask of the plan`);
    }
  }
  // Kahn's algorithm: whatever is never freed sits on a cycle.
  const waiting = new Map(subtasks.map((s) => [s.key, new Set(s.depends_on.filter((d) => keys.has(d)))]));
  let freed = true;
  while (freed) {
    freed = false;
    for (const [key, dependencies] of waiting) {
      if (dependencies.size > 0) continue;
      waiting.delete(key);
      for (const other of waiting.values()) other.delete(key);
      freed = true;
    }
  }
  if (waiting.size > 0) faults.push(`the dependencies of ${[...waiting.keys()].join(', ')} form a cycle`);
  return faults;
}

/**
 * A plan: the objective and constraints the Architect writes to `task/current-objective` and
 * `task/constraints`, the task graph (a DAG by `depends_on`) and the strategy its waves aggregate
 * by. The schema also refuses a graph that is not a DAG over its own keys, so a model's plan is
 * checked like the offline one.
 */
export const PlanSchema = z
  .strictObject({
    objective: z.string().min(1),
    constraints: z.array(z.string()),
    subtasks: z.array(PlannedSubtaskSchema).min(1),
    aggregation_strategy: AggregationStrategySchema,
    rationale: z.string().min(1),
  })
  .superRefine((plan, ctx) => {
    for (const message of planGraphFaults(plan.subtasks)) ctx.addIssue({ code: 'custom', path: ['subtasks'], message });
  });
export type Plan = z.infer<typeof PlanSchema>;

/** Model tokens a brain spent (zero or absent offline). */
export interface BrainTokens {
  input: number;
  output: number;
}

/**
 * What the Architect plans from. `revision` asks for a revised plan after a PARTIAL whose
 * majority failed (spec 002's Partial Success Rule 2); the caller asks once.
 */
export interface ArchitectInput {
  objective: string;
  problem: Problem;
  constraints: string[];
  /** The user's choice, else the rule table's. */
  aggregation_strategy?: AggregationStrategy;
  revision?: { previous: Plan; aggregate_summary: string; failed_keys: string[] };
}

/** Spec 002's ABSTRACT_ARCHITECT brain: a problem in, a plan out. */
export interface ArchitectBrain {
  plan(input: ArchitectInput, signal?: AbortSignal): Promise<Plan & { tokens?: BrainTokens }>;
}
