import type { Plan } from '../../actors/tiers/planning/plan.ts';
import type { TiersEnvelope } from '../../protocol/tiers/envelope.ts';
import type { DelegationPayload, OutcomePayload } from '../../protocol/tiers/payloads.ts';
import type { Problem } from '../../protocol/tiers/problem.ts';
import type { DelegationNodeView } from '../runtime/delegation-tree.ts';
import type { TaskGraph } from './dispatch-graph.ts';
import type { TaskContext } from './task-context.ts';
import { answerOnce, clarifiedSubtask, recordClarification } from './tier-clarification.ts';
import { payloadOf } from './tier-steps.ts';

/** A question that reached the Architect with the Dispatcher's `needs_clarification`. */
export interface PlanQuestion {
  /** The Monitor's delegation the Architect works on (the correlation of its delegations down). */
  parent: TiersEnvelope;
  /** The Dispatcher's delegation that ended with the question. */
  node: DelegationNodeView;
  /** The Dispatcher's outcome that carried it. */
  envelope: TiersEnvelope;
  /** The plan that delegation carried. */
  plan: Plan;
  /** Delegates a revised plan to the Dispatcher under `id` (journaled in the tree). */
  delegate: (plan: Plan, id: string) => Promise<TiersEnvelope>;
}

/** The subtask of the Dispatcher's graph for `delegation` that asked (the first to, as the aggregate reports it). */
async function askingSubtask(ctx: TaskContext, delegation: string): Promise<string | undefined> {
  const graph = (await ctx.beads.get('routing/task-graph'))?.value as TaskGraph | undefined;
  if (graph?.delegation !== delegation) return undefined;
  return [...graph.subtasks]
    .sort((a, b) => (a.settled_order ?? 0) - (b.settled_order ?? 0))
    .find((s) => s.status === 'needs_clarification')?.key;
}

/**
 * The Architect answers a question itself when a row of `CLARIFICATION_RULES` lets it, from what
 * it holds (the user's constraints, `task/constraints`, the problem, the family rule), once per
 * delegation it works on: the plan again with the answer in the asking subtask, as a new
 * delegation (new id, same correlation). Undefined when it cannot: the question goes up to the Monitor.
 */
export async function answerPlanQuestion(
  ctx: TaskContext,
  asked: PlanQuestion,
): Promise<{ plan: Plan; envelope: TiersEnvelope } | undefined> {
  const { parent, node, envelope, plan } = asked;
  const outcome = (node.result ?? {}) as Partial<OutcomePayload>;
  const key = await askingSubtask(ctx, node.id);
  if (key === undefined) return undefined;
  const detail = outcome.error_detail ?? outcome.summary ?? '';
  const delegation = payloadOf<DelegationPayload>(parent);
  const taskConstraints = ((await ctx.beads.get('task/constraints'))?.value as string[] | undefined) ?? [];
  const answer = await answerOnce(
    ctx,
    'ABSTRACT_ARCHITECT',
    parent.id,
    { id: envelope.id, error_type: outcome.error_type, detail },
    {
      constraints: [...delegation.constraints, ...taskConstraints],
      problem: delegation.task_data['problem'] as Problem,
    },
  );
  if (!answer) return undefined;
  const revised: Plan = {
    ...plan,
    constraints: plan.constraints.includes(answer.constraint)
      ? plan.constraints
      : [...plan.constraints, answer.constraint],
    subtasks: plan.subtasks.map((s) => (s.key === key ? clarifiedSubtask(s, answer, 'ABSTRACT_ARCHITECT', detail) : s)),
    rationale: `${plan.rationale} Answered ${key}'s question (rule ${answer.rule}): ${answer.answer}`,
  };
  const id = ctx.newId('decompose', parent.id, 'clarified');
  await ctx.beads.write('ARCHITECT', [
    { key: 'task/constraints', value: revised.constraints },
    { key: 'task/progress-summary', value: `Answered ${key}'s question itself: ${answer.answer}` },
  ]);
  const sent = await asked.delegate(revised, id);
  await recordClarification(ctx, {
    tier: 'ABSTRACT_ARCHITECT',
    correlation_id: parent.id,
    question_id: envelope.id,
    subtask: key,
    error_type: outcome.error_type ?? 'needs_clarification',
    question: detail,
    rule: answer.rule,
    answer: answer.answer,
    revision_id: id,
  });
  return { plan: revised, envelope: sent };
}
