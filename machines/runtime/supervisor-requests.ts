/**
 * The supervisor's request timers: a request admitted opens one (`request:<id>`, a delayed event
 * on the actor system's clock), a durable answer cancels it, and when it fires first the
 * requester hears `request_timeout`. An answer that fails (its append, or its delivery past its
 * expiry) leaves the request open, its timer running (see `OpenRequests`); a request whose own
 * append failed is closed, its timer cancelled, and its requester hears only that
 * (`journal_unavailable`). A timer that fires while the request is being journaled waits for its
 * turn; a request that expires while it waits for the disk is closed at its turn, and its
 * requester told at once: nobody can answer it.
 */
import type { OpenRequest, OpenRequests } from './open-requests.ts';
import type { PendingDelivery } from './pending-deliveries.ts';
import type { RequestExpiredEvent, SupervisorRejectedEvent } from './supervisor-events.ts';
import { refuse, type SupervisorStep } from './supervisor-step.ts';

/** The id of request `correlationId`'s timer, to cancel it by. */
export const requestTimerId = (correlationId: string) => `request:${correlationId}`;

/** Arms a newly admitted request's timeout. */
export function trackRequest(step: SupervisorStep, pending: PendingDelivery, timeoutMs: number | undefined): void {
  const { record } = pending;
  if (record.kind === 'request' && !record.expired) {
    const expired: RequestExpiredEvent = { type: 'supervisor.request.expired', correlationId: pending.id };
    // One timer per id at a time (XState does not clear a timer scheduled again under its id): a
    // request's timer goes when it closes, before the same id can be admitted again.
    // Stryker disable next-line ArrowFunction: XState's sendTo sends to the actor itself when its target resolves to undefined
    step.enqueue.sendTo(({ self }) => self, expired, {
      delay: timeoutMs ?? step.config.requestTimeoutMs,
      id: requestTimerId(pending.id),
    });
  }
}

/**
 * An answer comes to its turn in routing order: `delivered` (durable and handed over), it closes
 * its request and cancels its timer; failed (its append, or its delivery past its expiry), it
 * reopens the request, or, if the request's timer fired while the answer was held, its requester
 * hears `request_timeout` now (after the answer's revocation, under pipelined delivery).
 */
export function settleAnswer(step: SupervisorStep, pending: PendingDelivery, delivered: boolean): void {
  const correlationId = pending.record.correlation_id;
  // Stryker disable next-line ConditionalExpression: a fast path; `OpenRequests` takes only the answer it holds
  if (correlationId === undefined) return;
  const { requests } = step.context.ledger;
  if (delivered) {
    if (requests.answered(correlationId, pending.id)) step.enqueue.cancel(requestTimerId(correlationId));
    return;
  }
  const timedOut = requests.unanswered(correlationId, pending.id);
  if (!timedOut) return;
  // Still armed if the request ended by expiring while this answer was held.
  step.enqueue.cancel(requestTimerId(correlationId));
  tellTimedOut(step, correlationId, timedOut);
}

/**
 * An envelope that was not refused comes to its turn in routing order, `delivered` or (expired
 * while it waited for the disk) not: a request settles itself, an answer its request. (A failed
 * append settles only as an answer: the failed request was closed as its failure came back, and
 * one sent again meanwhile under its id is a new request.)
 */
export function settleTurn(
  step: SupervisorStep,
  pending: PendingDelivery,
  delivered: boolean,
  batch: { flush(): void },
): void {
  if (pending.record.kind === 'request') settleRequest(step, pending, delivered, batch);
  else settleAnswer(step, pending, delivered);
}

/**
 * A request comes to its turn in routing order. Delivered (durable and handed over): if its timer
 * fired while it waited for the disk, it is closed and its requester told, after the settled
 * `batch` is flushed (its delivery first). Expired while it waited (delivered to nobody): it is
 * closed, its timer cancelled, and its requester told now. Either way an answer to it that is
 * being journaled decides instead (`OpenRequests`). (One whose append failed was closed as the
 * failure came back, and its requester hears that.)
 */
function settleRequest(
  step: SupervisorStep,
  pending: PendingDelivery,
  delivered: boolean,
  batch: { flush(): void },
): void {
  const { requests } = step.context.ledger;
  if (delivered) {
    const timedOut = requests.stored(pending.id);
    if (!timedOut) return;
    batch.flush();
    tellTimedOut(step, pending.id, timedOut);
    return;
  }
  const expired = requests.undelivered(pending.id);
  if (!expired) return;
  step.enqueue.cancel(requestTimerId(pending.id));
  tellTimedOut(
    step,
    pending.id,
    expired,
    `Request ${pending.id} to ${expired.to} expired before it could be delivered.`,
  );
}

/**
 * Its receiver turned request `id` down (`throttled`) or was given up on (`undeliverable`): the
 * request is closed and its timer cancelled, unless an answer to it is held (`OpenRequests.decline`).
 * Returns the closed request, for its requester to be told.
 */
export function declineRequest(
  requests: OpenRequests,
  enqueue: { cancel(id: string): void },
  id: string,
): OpenRequest | undefined {
  const open = requests.decline(id);
  if (open) enqueue.cancel(requestTimerId(id));
  return open;
}

/** Requests closed as their own append failed: their timers are cancelled. */
export function cancelRequestTimers(step: SupervisorStep, closed: readonly string[]): void {
  for (const id of closed) step.enqueue.cancel(requestTimerId(id));
}

/** A request's timer fired: unless it was answered (or an answer to it is being journaled), it is closed and its requester told. */
export function expireRequest(step: SupervisorStep, correlationId: string): void {
  const open = step.context.ledger.requests.expire(correlationId);
  if (open) tellTimedOut(step, correlationId, open);
}

function tellTimedOut(
  step: SupervisorStep,
  correlationId: string,
  open: OpenRequest,
  message = `${open.to} did not answer request ${correlationId} in time.`,
): void {
  const rejected: SupervisorRejectedEvent = {
    type: 'supervisor.rejected',
    error: { code: 'request_timeout', message },
    requestId: correlationId,
  };
  refuse(step, open.requester, rejected);
}
