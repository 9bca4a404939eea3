import { cancellationEnvelope, outcomePayload } from '../../actors/tiers/tier-envelopes.ts';
import type { TiersEnvelope } from '../../protocol/tiers/envelope.ts';
import type { DelegationPayload, OutcomePayload } from '../../protocol/tiers/payloads.ts';
import type { TaskRequest } from '../../protocol/tiers/task-request.ts';
import type { DelegationNodeView } from '../runtime/delegation-tree.ts';
import { recordOutcome } from './monitor-records.ts';
import type { TaskContext, TierHandler } from './task-context.ts';
import { dataOf, delegateDown, payloadOf, takeOutcome } from './tier-steps.ts';

/** Why the Monitor delegated a root: the first time, a reset after a failure, or the user's answer. */
export type RootReason = 'start' | 'reset' | 'clarified';

/** The task's roots (the Monitor's delegations to the Architect), oldest first. */
export const rootsOf = (ctx: TaskContext): DelegationNodeView[] =>
  ctx.tree.nodes().filter((node) => node.parent === null);

/**
 * A delegation from the Monitor to the Architect. The first one starts the task; a reset or the
 * user's answer is a new delegation whose `correlation_id` is the first one's id (the work
 * resumes, the old message stays ended).
 */
export async function delegateRoot(
  ctx: TaskContext,
  payload: DelegationPayload,
  reason: RootReason,
): Promise<TiersEnvelope> {
  const roots = rootsOf(ctx);
  const first = roots[0] ? dataOf(roots[0]).envelope : undefined;
  return delegateDown(ctx, {
    from: 'PROGRESS_MONITOR',
    to: 'ABSTRACT_ARCHITECT',
    parent: null,
    // A resumed root names the task's first delegation (or what that one named, when it came from outside).
    correlationId: first ? (first.correlation_id ?? first.id) : null,
    id: ctx.newId('root', roots.length),
    payload,
    key: reason,
  });
}

/**
 * The first delegation of a task an external Progress Monitor sent (to the Architect): taken into
 * the task's tree as it came, its timeout its own or the Architect's default.
 */
export async function adoptExternalRoot(ctx: TaskContext, envelope: TiersEnvelope): Promise<TiersEnvelope> {
  await ctx.tree.delegate({
    id: envelope.id,
    parent: null,
    owner: 'PROGRESS_MONITOR',
    target: 'ABSTRACT_ARCHITECT',
    timeoutMs:
      (envelope.payload as { timeout_ms: number | null }).timeout_ms ?? ctx.defaultTimeoutMs('ABSTRACT_ARCHITECT'),
    data: { envelope, key: 'start' },
  });
  return envelope;
}

/** The Monitor's first delegation of a task a user submitted over HTTP: the problem goes in `task_data`. */
export function rootPayloadOf(request: TaskRequest): DelegationPayload {
  const strategy = request.aggregation_strategy;
  return {
    task_type: 'solve',
    objective: request.objective,
    constraints: request.constraints ?? [],
    context_refs: [],
    priority: request.priority ?? 2,
    timeout_ms: request.timeout_ms ?? null,
    deadline_hint: null,
    specialist_hint: null,
    task_data: { problem: request.problem, ...(strategy ? { aggregation_strategy: strategy } : {}) },
  };
}

/**
 * The user's answer to the task's question: the last root again (its `timeout_ms` too), with the
 * answer in `task_data.clarification`.
 */
export async function resumeWithAnswer(ctx: TaskContext, answer: string): Promise<TiersEnvelope> {
  const last = payloadOf<DelegationPayload>(dataOf(rootsOf(ctx).at(-1)!).envelope);
  return delegateRoot(ctx, { ...last, task_data: { ...last.task_data, clarification: answer } }, 'clarified');
}

/**
 * The Monitor cancels the task's open root: with `cascade` its tree ends every open descendant
 * `cancelled` at once (the sender's decision; each tier then answers `cancelled` with its
 * partial results and passes the cancellation down). Undefined when no root is open.
 */
export async function cancelRoot(
  ctx: TaskContext,
  reason: string,
  cascade: boolean,
): Promise<TiersEnvelope | undefined> {
  const open = rootsOf(ctx).find((node) => node.status === 'open');
  if (!open) return undefined;
  await ctx.tree.cancel(open.id, { reason, cascade });
  return cancellationEnvelope(
    {
      id: ctx.newId('cancel', open.id),
      from: 'PROGRESS_MONITOR',
      to: 'ABSTRACT_ARCHITECT',
      correlationId: null,
      at: ctx.clock.now(),
    },
    { target_message_id: open.id, reason, cascade },
  );
}

/** Whether an earlier root of the task already asked the user this question (never asked twice). */
function askedBefore(ctx: TaskContext, node: DelegationNodeView, outcome: OutcomePayload): boolean {
  const question = outcome.error_detail ?? outcome.summary;
  return rootsOf(ctx).some((root) => {
    if (root.id === node.id || root.status !== 'needs_clarification') return false;
    const asked = root.result as Partial<OutcomePayload> | undefined;
    return (asked?.error_detail ?? asked?.summary) === question;
  });
}

/** The outcome of a task cancelled while it waited for its user's answer (nothing was open to cancel). */
export function cancelledWaiting(question: string, reason: string): OutcomePayload {
  return outcomePayload({
    status: 'cancelled',
    summary: 'The task was cancelled while it waited for the user’s answer.',
    resources_used: { partial_results: null },
    error_type: 'cancelled',
    error_detail: `${reason} (unanswered question: ${question})`,
    recoverable: false,
  });
}

/** Whether the Monitor resets after this end: once per task, for a failure a retry may fix. */
function resets(ctx: TaskContext, node: DelegationNodeView, outcome: Partial<OutcomePayload>): boolean {
  const transient = node.status === 'timeout' || (node.status === 'failed' && outcome.recoverable === true);
  return transient && !rootsOf(ctx).some((root) => dataOf(root).key === 'reset');
}

/** The Monitor's final outcome of the task: the Architect's, or what the watchdog or a cancellation left. */
function finalOf(node: DelegationNodeView): OutcomePayload {
  const reported = node.result as Partial<OutcomePayload> | undefined;
  if (node.settledBy === 'target' && reported?.status) return reported as OutcomePayload;
  const status = node.status as OutcomePayload['status'];
  return outcomePayload({
    status,
    summary:
      status === 'timeout' ? 'The Architect did not answer before the task’s deadline.' : `The task ended ${status}.`,
    resources_used: status === 'cancelled' ? { partial_results: node.result ?? null } : {},
    error_type: status,
    error_detail: status === 'timeout' ? 'No answer before the deadline (the Monitor’s watchdog).' : `Ended ${status}.`,
    recoverable: false,
  });
}

/**
 * Spec 002's PROGRESS_MONITOR, on the Architect's outcome: a question waits for the user; a
 * failure a retry may fix resets the task once (a new delegation); else the task ends, and the
 * Monitor judges it (surprise against `history/*` bounds) and updates `system/*` and `history/*`.
 */
export const monitorTier: TierHandler = async ({ envelope, watchdog }, ctx) => {
  if (!('status' in envelope.payload)) return [];
  const { late, node } = await takeOutcome(ctx, envelope, watchdog);
  if (!node || node.status === 'open') return [];
  // The Monitor's own cancellation ended the root at once; the Architect's `cancelled` answer (with its partial results) ends the task.
  const answersCancel =
    late && node.settledBy === 'cancellation' && payloadOf<OutcomePayload>(envelope).status === 'cancelled';
  if (late && !answersCancel) return [];
  const outcome = answersCancel ? payloadOf<OutcomePayload>(envelope) : finalOf(node);
  if (answersCancel) {
    await ctx.settle({ status: 'cancelled', outcome: await recordOutcome(ctx, outcome), waiting_for_user: null });
    return [];
  }
  if (node.status === 'needs_clarification' && askedBefore(ctx, node, outcome)) {
    const unresolved = outcomePayload({
      status: 'failed',
      summary: 'The user’s answer did not resolve the question, so the task ends instead of asking it again.',
      resources_used: {},
      error_type: 'clarification_unresolved',
      error_detail: `Asked again after the user’s answer: ${outcome.error_detail ?? outcome.summary} Submit a new task with consistent test cases.`,
      recoverable: false,
    });
    await ctx.settle({ status: 'failed', outcome: unresolved, waiting_for_user: null });
    return [];
  }
  if (node.status === 'needs_clarification') {
    await ctx.settle({
      status: 'needs_clarification',
      outcome,
      waiting_for_user: { question: outcome.error_detail ?? outcome.summary },
    });
    return [];
  }
  if (resets(ctx, node, outcome)) {
    const first = payloadOf<DelegationPayload>(dataOf(node).envelope);
    return [await delegateRoot(ctx, first, 'reset')];
  }
  // What the Monitor learns must not keep the task from ending: an unjudged outcome still ends it.
  const final = await recordOutcome(ctx, outcome).catch((error: unknown) => {
    console.error(`Tiers task ${ctx.taskId}: the Monitor could not record its outcome:`, error);
    return outcome;
  });
  await ctx.settle({ status: final.status, outcome: final, waiting_for_user: null });
  return [];
};
