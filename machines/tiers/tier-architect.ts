import { outcomePayload } from '../../actors/tiers/tier-envelopes.ts';
import { applyAnswer } from '../../actors/tiers/fleet/clarified-tests.ts';
import { failedBySolution, OPTIONAL_TASK_TYPES } from '../../actors/tiers/planning/architect-rules.ts';
import type { Plan } from '../../actors/tiers/planning/plan.ts';
import { ProblemSchema, type Problem } from '../../protocol/tiers/problem.ts';
import type { TiersEnvelope } from '../../protocol/tiers/envelope.ts';
import type { DelegationPayload, OutcomePayload } from '../../protocol/tiers/payloads.ts';
import type { AggregationStrategy } from '../../protocol/runtime/aggregated-outcome.ts';
import { answerPlanQuestion } from './architect-clarification.ts';
import type { TaskGraph } from './dispatch-graph.ts';
import type { TaskContext, TierHandler } from './task-context.ts';
import {
  answerCancellation,
  dataOf,
  delegateDown,
  payloadOf,
  refuseRefs,
  replyTo,
  takeOutcome,
  unreadableRefs,
} from './tier-steps.ts';

const TASK_REFS = [
  'beads:task/current-objective',
  'beads:task/constraints',
  'beads:task/problem-statement',
  'beads:task/test-cases',
];

/** What the Architect keeps of its plan (`task/plan`): the plan and whether it was revised already. */
interface PlanRecord {
  plan: Plan;
  revised: boolean;
  delegation: string;
}

/** Delegates a plan to the Dispatcher as "decompose and solve". */
async function delegatePlan(
  ctx: TaskContext,
  parent: TiersEnvelope,
  plan: Plan,
  revision: number,
  id = ctx.newId('decompose', parent.id, revision),
): Promise<TiersEnvelope> {
  const payload = payloadOf<DelegationPayload>(parent);
  return delegateDown(ctx, {
    from: 'ABSTRACT_ARCHITECT',
    to: 'ROUTING_DISPATCHER',
    parent: parent.id,
    correlationId: parent.id,
    id,
    payload: {
      task_type: 'decompose_and_solve',
      objective: plan.objective,
      constraints: plan.constraints,
      context_refs: TASK_REFS,
      priority: payload.priority,
      timeout_ms: null,
      deadline_hint: null,
      specialist_hint: null,
      task_data: {
        plan: { subtasks: plan.subtasks, aggregation_strategy: plan.aggregation_strategy },
        revision,
        rationale: plan.rationale,
      },
    },
  });
}

const failed = (ctx: TaskContext, delegation: TiersEnvelope, errorType: string, detail: string) =>
  replyTo(
    ctx,
    delegation,
    outcomePayload({
      status: 'failed',
      summary: `The Architect could not plan: ${detail}`,
      error_type: errorType,
      error_detail: detail,
      recoverable: false,
    }),
  );

/** Plans a delegation from the Monitor: writes the task's context to Beads and delegates to the Dispatcher. */
async function plan(ctx: TaskContext, envelope: TiersEnvelope, signal: AbortSignal): Promise<TiersEnvelope[]> {
  const payload = payloadOf<DelegationPayload>(envelope);
  const refused = unreadableRefs('ABSTRACT_ARCHITECT', payload);
  if (refused.length > 0) return [refuseRefs(ctx, envelope, refused)];
  const parsed = ProblemSchema.safeParse(payload.task_data['problem']);
  if (!parsed.success)
    return [
      failed(
        ctx,
        envelope,
        'invalid_task_data',
        `task_data.problem: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      ),
    ];
  const clarification = payload.task_data['clarification'];
  // The user's answer keeps the contradictory test cases that agree with it (offline rule `applyAnswer`).
  const problem: Problem =
    typeof clarification === 'string'
      ? { ...parsed.data, test_cases: applyAnswer(parsed.data.test_cases, clarification) }
      : parsed.data;
  const constraints =
    typeof clarification === 'string'
      ? [...payload.constraints, `Clarified by the user: ${clarification}`]
      : payload.constraints;
  const strategy = payload.task_data['aggregation_strategy'] as AggregationStrategy | undefined;
  let planned: Plan;
  try {
    planned = await ctx.brains.architect.plan(
      { objective: payload.objective, problem, constraints, ...(strategy ? { aggregation_strategy: strategy } : {}) },
      signal,
    );
  } catch (error) {
    return [failed(ctx, envelope, 'planning_failed', error instanceof Error ? error.message : String(error))];
  }
  const { problem_id, statement, function_name, language } = problem;
  await ctx.beads.write('ARCHITECT', [
    { key: 'task/current-objective', value: planned.objective },
    { key: 'task/constraints', value: planned.constraints },
    {
      key: 'task/problem-statement',
      value: { ...(problem_id ? { problem_id } : {}), statement, function_name, language },
    },
    { key: 'task/test-cases', value: problem.test_cases },
    { key: 'task/plan', value: { plan: planned, revised: false, delegation: envelope.id } satisfies PlanRecord },
  ]);
  return [await delegatePlan(ctx, envelope, planned, 0)];
}

/** Whether a verifier of the Dispatcher's graph for `delegation` failed because of the solution (rule `keep-solution-failures`). */
async function solutionCaught(ctx: TaskContext, delegation: string): Promise<boolean> {
  const graph = (await ctx.beads.get('routing/task-graph'))?.value as TaskGraph | undefined;
  if (graph?.delegation !== delegation) return false;
  return graph.subtasks.some(
    (s) => OPTIONAL_TASK_TYPES.has(s.task_type) && s.status !== 'success' && failedBySolution(s.error_type),
  );
}

/** Passes a Dispatcher's outcome up, or revises the plan once after a PARTIAL whose majority failed. */
async function review(
  ctx: TaskContext,
  envelope: TiersEnvelope,
  watchdog: boolean,
  signal: AbortSignal,
): Promise<TiersEnvelope[]> {
  const { late, repeated, node } = await takeOutcome(ctx, envelope, watchdog);
  if (late || !node || node.status === 'open' || node.parent === null) return [];
  const parentNode = ctx.tree.node(node.parent)!;
  if (parentNode.status !== 'open') return [];
  // Handed over again after a crash that came after the revision was delegated: it is on its way.
  if (repeated && parentNode.children.at(-1) !== node.id) return [];
  const parent = dataOf(parentNode).envelope;
  const outcome = (node.result ?? {}) as Partial<OutcomePayload>;
  const record = (await ctx.beads.get('task/plan'))?.value as PlanRecord | undefined;
  if (
    node.status === 'partial' &&
    outcome.resources_used?.['revise_strategy'] === true &&
    record &&
    !record.revised &&
    !(await solutionCaught(ctx, node.id))
  ) {
    const failedKeys = ((outcome.artifacts?.[0]?.metadata['child_outcomes'] ?? []) as { key: string; status: string }[])
      .filter((c) => c.status !== 'success')
      .map((c) => c.key);
    const problem = payloadOf<DelegationPayload>(parent).task_data['problem'] as Problem;
    const revised = await ctx.brains.architect.plan(
      {
        objective: record.plan.objective,
        problem,
        constraints: record.plan.constraints,
        revision: { previous: record.plan, aggregate_summary: outcome.summary ?? '', failed_keys: failedKeys },
      },
      signal,
    );
    await ctx.beads.write('ARCHITECT', [
      { key: 'task/plan', value: { plan: revised, revised: true, delegation: parent.id } satisfies PlanRecord },
      { key: 'task/progress-summary', value: `Revised the plan once: ${revised.rationale}` },
    ]);
    return [await delegatePlan(ctx, parent, revised, 1)];
  }
  if (node.status === 'needs_clarification' && record) {
    const delegate = (plan: Plan, id: string) => delegatePlan(ctx, parent, plan, record.revised ? 1 : 0, id);
    const revision = await answerPlanQuestion(ctx, { parent, node, envelope, plan: record.plan, delegate });
    if (revision) {
      await ctx.beads.write('ARCHITECT', [{ key: 'task/plan', value: { ...record, plan: revision.plan } }]);
      return [revision.envelope];
    }
  }
  const status = node.status;
  await ctx.beads.write('ARCHITECT', [
    {
      key: 'task/progress-summary',
      value: `${status}: ${outcome.summary ?? 'no answer from the Dispatcher before its deadline'}`,
    },
  ]);
  // Spec 002's escalation: what the Architect cannot fix goes up as it is (a timeout as a recoverable failure).
  const up = outcomePayload({
    ...outcome,
    status,
    summary: outcome.summary ?? `The Dispatcher did not answer before its deadline (${status}).`,
    execution_time_ms: Math.max(0, Math.round(ctx.clock.now() - parentNode.delegatedAt)),
    ...(status === 'timeout'
      ? {
          error_type: 'timeout',
          error_detail: 'The Dispatcher timed out (the Architect’s watchdog).',
          recoverable: true,
        }
      : {}),
  });
  return [replyTo(ctx, parent, up)];
}

/**
 * Spec 002's ABSTRACT_ARCHITECT: plans the Monitor's delegation (writing `task/current-objective`,
 * `task/constraints`, the problem and test cases), delegates "decompose and solve", revises its
 * plan once after a PARTIAL flagged for revision, answers a question from below itself once when
 * its rules let it (`CLARIFICATION_RULES`), and escalates what it cannot fix.
 */
export const architectTier: TierHandler = async ({ envelope, watchdog, signal }, ctx) => {
  if ('target_message_id' in envelope.payload) return answerCancellation(ctx, envelope);
  if ('task_type' in envelope.payload) return plan(ctx, envelope, signal);
  return review(ctx, envelope, watchdog, signal);
};
