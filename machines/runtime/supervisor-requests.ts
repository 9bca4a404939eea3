/**
 * The supervisor's request timers: a request admitted opens one (`request:<id>`, a delayed event
 * on the actor system's clock), a durable answer cancels it, and when it fires first the
 * requester hears `request_timeout`. An answer that fails (its append, or its delivery past its
 * expiry) leaves the request open, its timer running (see `OpenRequests`).
 */
import type { OpenRequest } from './open-requests.ts';
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
    // Sent again after its append failed: the failed send's timer must not close it early.
    step.enqueue.cancel(requestTimerId(pending.id));
    // Stryker disable next-line ArrowFunction: XState's sendTo sends to the actor itself when its target resolves to undefined
    step.enqueue.sendTo(({ self }) => self, expired, {
      delay: timeoutMs ?? step.config.requestTimeoutMs,
      id: requestTimerId(pending.id),
    });
  }
}

/**
 * A request or an answer is settled (`delivered`: durable and handed over, or not): a durable
 * answer closes its request and cancels its timer; a failed one reopens it, and tells its
 * requester now if its timer fired meanwhile; a request whose append failed is closed (by the
 * ledger), and its timer cancelled.
 */
export function settleRequest(step: SupervisorStep, pending: PendingDelivery, delivered: boolean): void {
  const { record } = pending;
  const correlationId = record.correlation_id;
  // Stryker disable next-line ConditionalExpression: a fast path; without a correlation neither branch below changes anything (no timer has that id, no request that answer)
  if (correlationId === undefined) return;
  const { requests } = step.context.ledger;
  if (record.kind === 'request') {
    // Stryker disable next-line OptionalChaining: `ledger.settle` makes due only deliveries whose `settled` is set
    if (!pending.settled?.ok) step.enqueue.cancel(requestTimerId(correlationId));
  } else if (delivered) {
    if (requests.answered(correlationId, pending.id)) step.enqueue.cancel(requestTimerId(correlationId));
  } else {
    const timedOut = requests.unanswered(correlationId, pending.id);
    if (timedOut) tellTimedOut(step, correlationId, timedOut);
  }
}

/** A request's timer fired: unless it was answered (or an answer to it is being journaled), it is closed and its requester told. */
export function expireRequest(step: SupervisorStep, correlationId: string): void {
  const open = step.context.ledger.requests.expire(correlationId);
  if (open) tellTimedOut(step, correlationId, open);
}

function tellTimedOut(step: SupervisorStep, correlationId: string, open: OpenRequest): void {
  const rejected: SupervisorRejectedEvent = {
    type: 'supervisor.rejected',
    error: { code: 'request_timeout', message: `${open.to} did not answer request ${correlationId} in time.` },
    requestId: correlationId,
  };
  refuse(step, open.requester, rejected);
}
