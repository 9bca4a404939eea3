import {
  answerQuestion,
  type AnsweringTier,
  type ClarificationAnswer,
} from '../../actors/tiers/planning/clarification-rules.ts';
import type { PlannedSubtask } from '../../actors/tiers/planning/plan.ts';
import type { Problem } from '../../protocol/tiers/problem.ts';
import type { TaskContext } from './task-context.ts';

/*
 * A higher tier answering a question from below itself (issue 12, rule Clarification): at most
 * once per (tier, correlation), by the rule table `CLARIFICATION_RULES`, as a new delegation with
 * the answer in it. What it answered is kept in its own Beads namespace, so a second question on
 * the same correlation flows on up, also after a restart.
 */

/** One question a tier answered: kept at `routing/clarifications` (Dispatcher) or `task/clarifications` (Architect). */
export interface ClarificationRecord {
  tier: AnsweringTier;
  /** The correlation the answer was given on: the delegation the tier works on. */
  correlation_id: string;
  /** The `needs_clarification` outcome that asked. */
  question_id: string;
  /** The plan's subtask that asked. */
  subtask: string;
  error_type: string;
  question: string;
  rule: string;
  answer: string;
  /** The new delegation that carries the answer. */
  revision_id: string;
}

const RECORDS = {
  ROUTING_DISPATCHER: { key: 'routing/clarifications', role: 'DISPATCHER' },
  ABSTRACT_ARCHITECT: { key: 'task/clarifications', role: 'ARCHITECT' },
} as const;

/** What `tier` has answered in this task, oldest first. */
export async function clarificationsOf(ctx: TaskContext, tier: AnsweringTier): Promise<ClarificationRecord[]> {
  return ((await ctx.beads.get(RECORDS[tier].key))?.value as ClarificationRecord[] | undefined) ?? [];
}

/** What a question said, as the tier that may answer it reads it. */
export interface AskedQuestion {
  /** The outcome that asked. */
  id: string;
  error_type: string | null | undefined;
  detail: string;
}

/**
 * The answer of `tier` to a question on `correlation`, or undefined (flows on up): once the tier
 * answered on that correlation, or when no row of the table answers from what it holds.
 */
export async function answerOnce(
  ctx: TaskContext,
  tier: AnsweringTier,
  correlation: string,
  question: AskedQuestion,
  knowledge: { constraints: readonly string[]; problem?: Problem },
): Promise<ClarificationAnswer | undefined> {
  const answered = await clarificationsOf(ctx, tier);
  // The same question handed over again (a redelivery) gets the same answer: derived ids make the revision the same one.
  const again = answered.find((r) => r.question_id === question.id);
  if (!again && answered.some((r) => r.correlation_id === correlation)) return undefined;
  return answerQuestion(tier, question.error_type, knowledge);
}

/** Keeps what `tier` answered (once per question: a redelivery is not kept twice). */
export async function recordClarification(ctx: TaskContext, record: ClarificationRecord): Promise<void> {
  const answered = await clarificationsOf(ctx, record.tier);
  if (answered.some((r) => r.question_id === record.question_id)) return;
  await ctx.beads.write(RECORDS[record.tier].role, [{ key: RECORDS[record.tier].key, value: [...answered, record] }]);
}

/**
 * The subtask with the answer in it: the bound as `task_data.claimed_complexity`, the constraint
 * added, and `task_data.clarification` saying who answered what, by which rule.
 */
export function clarifiedSubtask<S extends PlannedSubtask>(
  subtask: S,
  answer: ClarificationAnswer,
  tier: AnsweringTier,
  question: string,
): S {
  return {
    ...subtask,
    constraints: subtask.constraints.includes(answer.constraint)
      ? subtask.constraints
      : [...subtask.constraints, answer.constraint],
    task_data: {
      ...subtask.task_data,
      claimed_complexity: answer.claimed_complexity,
      clarification: { question, answer: answer.answer, answered_by: tier, rule: answer.rule },
    },
  };
}
