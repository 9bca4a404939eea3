import type { TiersEnvelope } from '../../protocol/tiers/envelope.ts';
import type { DelegationPayload, OutcomePayload } from '../../protocol/tiers/payloads.ts';
import type { GraphSubtask, TaskGraph } from './dispatch-graph.ts';
import type { TaskContext } from './task-context.ts';
import { answerOnce, clarifiedSubtask, recordClarification } from './tier-clarification.ts';
import { payloadOf } from './tier-steps.ts';

/** A subtask's question as the Dispatcher takes it: its graph, the delegation it serves, the outcome that asked. */
export interface SubtaskQuestion {
  graph: TaskGraph;
  subtask: GraphSubtask;
  /** The Architect's delegation the graph serves. */
  parent: TiersEnvelope;
  /** The `needs_clarification` outcome. */
  envelope: TiersEnvelope;
  /** Starts the subtask's next attempt (a new id, the same correlation) and saves the graph. */
  restart: () => Promise<TiersEnvelope[]>;
}

/**
 * The Dispatcher answers a subtask's question itself when a row of `CLARIFICATION_RULES` lets it,
 * from what it holds (its delegation's constraints and `task/constraints`), once per delegation it
 * works on: the subtask gets the answer and a new attempt. Undefined when it cannot: the question
 * ends the subtask and flows on up with the aggregate.
 */
export async function answerSubtask(ctx: TaskContext, asked: SubtaskQuestion): Promise<TiersEnvelope[] | undefined> {
  const { graph, subtask, parent, envelope } = asked;
  const outcome = payloadOf<OutcomePayload>(envelope);
  const detail = outcome.error_detail ?? outcome.summary;
  const taskConstraints = ((await ctx.beads.get('task/constraints'))?.value as string[] | undefined) ?? [];
  const answer = await answerOnce(
    ctx,
    'ROUTING_DISPATCHER',
    graph.delegation,
    { id: envelope.id, error_type: outcome.error_type, detail },
    { constraints: [...payloadOf<DelegationPayload>(parent).constraints, ...taskConstraints] },
  );
  if (!answer) return undefined;
  Object.assign(subtask, clarifiedSubtask(subtask, answer, 'ROUTING_DISPATCHER', detail));
  const sends = await asked.restart();
  await recordClarification(ctx, {
    tier: 'ROUTING_DISPATCHER',
    correlation_id: graph.delegation,
    question_id: envelope.id,
    subtask: subtask.key,
    error_type: outcome.error_type ?? 'needs_clarification',
    question: detail,
    rule: answer.rule,
    answer: answer.answer,
    revision_id: subtask.attempts.at(-1)!,
  });
  return sends;
}
