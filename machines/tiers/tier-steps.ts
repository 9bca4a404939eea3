import {
  cancellationEnvelope,
  delegationEnvelope,
  outcomeEnvelope,
  outcomePayload,
} from '../../actors/tiers/tier-envelopes.ts';
import { BEADS_ROLE_OF, isReadableRef } from '../../protocol/tiers/beads.ts';
import type { Tier, TiersEnvelope } from '../../protocol/tiers/envelope.ts';
import type { CancellationPayload, DelegationPayload, OutcomePayload } from '../../protocol/tiers/payloads.ts';
import type { DelegationNodeView } from '../runtime/delegation-tree.ts';
import type { TaskContext } from './task-context.ts';

/*
 * The steps every tier shares: delegate one tier down (journaled in the task's tree, its deadline
 * clamped to the parent's), answer a delegation, take an outcome (a late one changes nothing),
 * answer a cancellation with partial results and pass it on.
 */

/** What a tier keeps with each delegation it made (the tree node's `data`). */
export interface DelegationData {
  envelope: TiersEnvelope;
  /** The fleet specialist it went to, for delegations to the fleet. */
  specialist?: string;
  /** The Dispatcher's subtask key, the Monitor's reason for a new root. */
  key?: string;
  /**
   * When a retry waiting out its backoff goes on the wire (ms since the clock's epoch): journaled
   * with the delegation, so a restart re-arms it for this time instead of sending it at once.
   */
  sendAt?: number;
}

export const dataOf = (node: DelegationNodeView): DelegationData => node.data as DelegationData;

export const payloadOf = <P>(envelope: TiersEnvelope) => envelope.payload as P;

/**
 * Delegates `payload` from `from` to the tier below under `parent` (null for the Monitor's root):
 * `timeout_ms` is the payload's, else the tier's default, clamped to the parent's remaining time
 * (the envelope says the clamped value). Journaled in the tree before the envelope leaves.
 */
export async function delegateDown(
  ctx: TaskContext,
  request: {
    from: Tier;
    to: Tier;
    parent: string | null;
    correlationId: string | null;
    id: string;
    payload: DelegationPayload;
    specialist?: string;
    key?: string;
    sendAt?: number;
  },
): Promise<TiersEnvelope> {
  const now = ctx.clock.now();
  const wanted = request.payload.timeout_ms ?? ctx.defaultTimeoutMs(request.to);
  const parentNode = request.parent === null ? undefined : ctx.tree.node(request.parent);
  const timeoutMs = parentNode ? Math.max(1, Math.min(wanted, parentNode.deadline - now)) : wanted;
  const envelope = delegationEnvelope(
    { id: request.id, from: request.from, to: request.to, correlationId: request.correlationId, at: now },
    { ...request.payload, timeout_ms: timeoutMs },
  );
  const data: DelegationData = { envelope };
  if (request.specialist !== undefined) data.specialist = request.specialist;
  if (request.key !== undefined) data.key = request.key;
  if (request.sendAt !== undefined) data.sendAt = request.sendAt;
  await ctx.tree.delegate({
    id: request.id,
    parent: request.parent,
    owner: request.from,
    target: request.to,
    timeoutMs,
    data,
  });
  return envelope;
}

/** The outcome answering `delegation`, from its target to its sender. */
export function replyTo(
  ctx: TaskContext,
  delegation: TiersEnvelope,
  payload: OutcomePayload,
  tag = 'outcome',
): TiersEnvelope {
  return outcomeEnvelope(
    {
      id: ctx.newId(tag, delegation.id),
      from: delegation.target_tier,
      to: delegation.source_tier,
      correlationId: delegation.id,
      at: ctx.clock.now(),
    },
    payload,
  );
}

/**
 * Records an outcome for the delegation it answers. A watchdog's outcome was journaled by the
 * tree when it fired (the sender's watchdog is authoritative); any other outcome after the
 * delegation ended is journaled as late and changes nothing (`late: true`: ignore it). The
 * outcome that ended it, handed over again after a crash (`repeated: true`), must finish the
 * reaction the crash cut short: the tiers' reactions are idempotent (derived ids, duplicate
 * delegations return the journaled node).
 */
export async function takeOutcome(
  ctx: TaskContext,
  envelope: TiersEnvelope,
  watchdog: boolean,
): Promise<{ late: boolean; repeated: boolean; node: DelegationNodeView | undefined }> {
  const id = envelope.correlation_id;
  const node = id === null ? undefined : ctx.tree.node(id);
  if (!node) return { late: true, repeated: false, node: undefined };
  if (watchdog) return { late: false, repeated: false, node };
  const payload = payloadOf<OutcomePayload>(envelope);
  const outcome: { status: OutcomePayload['status']; result: unknown; confidence?: number; messageId: string } = {
    status: payload.status,
    result: payload,
    messageId: envelope.id,
  };
  if (typeof payload.confidence === 'number') outcome.confidence = payload.confidence;
  const receipt = await ctx.tree.report(node.id, outcome);
  return { late: receipt.late, repeated: receipt.repeated, node: receipt.node };
}

/**
 * The delegation ended before its target took it up (cancelled, timed out, the task over, e.g.
 * during a retry's backoff): the target runs nothing and answers nothing for it.
 */
export function endedBeforeStart(ctx: TaskContext, delegation: TiersEnvelope): boolean {
  const node = ctx.tree.node(delegation.id);
  return node !== undefined && node.status !== 'open';
}

/** The refs of `payload.context_refs` that `tier` may not read (spec 002: only Beads keys it reads). */
export function unreadableRefs(tier: Tier, payload: DelegationPayload): string[] {
  return payload.context_refs.filter((ref) => !isReadableRef(ref, BEADS_ROLE_OF[tier]));
}

/** A `failed` answer refusing a delegation whose context refs name keys its receiver may not read. */
export function refuseRefs(ctx: TaskContext, delegation: TiersEnvelope, refs: string[]): TiersEnvelope {
  return replyTo(
    ctx,
    delegation,
    outcomePayload({
      status: 'failed',
      summary: `Refused: context_refs name keys ${delegation.target_tier} may not read.`,
      error_type: 'invalid_context_ref',
      error_detail: `Not a readable Beads key: ${refs.join(', ')}. Name keys as beads:<namespace>/<name> in task/, routing/, execution/, system/ or history/.`,
      recoverable: false,
    }),
  );
}

/** The partial results a cancelled node had: its children that ended, and how. */
export function partialResultsOf(
  ctx: TaskContext,
  node: DelegationNodeView,
): { completed: { id: string; status: string; confidence: number }[] } {
  const completed = node.children
    .map((id) => ctx.tree.node(id)!)
    .filter((child) => child.status !== 'open' && child.status !== 'cancelled')
    .map((child) => ({ id: child.id, status: child.status, confidence: child.confidence ?? 0 }));
  return { completed };
}

/**
 * A tier's answer to a cancellation of the delegation it received: it ends that delegation
 * (cascading when asked) unless the sender's tree already did, answers `cancelled` with its
 * partial results, and with `cascade` passes a cancellation down for each child it cancelled.
 * A delegation that already ended otherwise (the tree holds its outcome) gets no second answer.
 */
export async function answerCancellation(ctx: TaskContext, envelope: TiersEnvelope): Promise<TiersEnvelope[]> {
  const cancellation = payloadOf<CancellationPayload>(envelope);
  const target = ctx.tree.node(cancellation.target_message_id);
  // Already ended by its own outcome (or the watchdog's, on the wire as its own): that one stands, nothing new.
  if (!target || (target.status !== 'open' && target.settledBy !== 'cancellation')) return [];
  if (target.status === 'open')
    await ctx.tree.cancel(target.id, { reason: cancellation.reason, cascade: cancellation.cascade });
  const delegation = dataOf(target).envelope;
  const settled = ctx.tree.node(target.id)!;
  const partial = (settled.result ?? partialResultsOf(ctx, settled)) as unknown;
  const sends: TiersEnvelope[] = [
    replyTo(
      ctx,
      delegation,
      outcomePayload({
        status: 'cancelled',
        summary: `Cancelled: ${cancellation.reason}`,
        result_refs: [],
        resources_used: { partial_results: partial },
        error_type: 'cancelled',
        error_detail: cancellation.reason,
        recoverable: false,
      }),
      'cancelled',
    ),
  ];
  if (!cancellation.cascade) return sends;
  for (const childId of settled.children) {
    const child = ctx.tree.node(childId)!;
    if (child.status !== 'cancelled' || child.settledBy !== 'cancellation') continue;
    sends.push(
      cancellationEnvelope(
        {
          id: ctx.newId('cancel', child.id),
          from: child.owner as Tier,
          to: child.target as Tier,
          correlationId: null,
          at: ctx.clock.now(),
        },
        { target_message_id: child.id, reason: cancellation.reason, cascade: true },
      ),
    );
  }
  return sends;
}
