/**
 * The supervisor's request timers: a request admitted opens one (`request:<id>`, a delayed event
 * on the actor system's clock), its response cancels it, and when it fires first the requester
 * hears `request_timeout`.
 */
import type { PendingDelivery } from './pending-deliveries.ts';
import type { RequestExpiredEvent, SupervisorRejectedEvent } from './supervisor-events.ts';
import { refuse, type SupervisorStep } from './supervisor-step.ts';

/** The id of request `correlationId`'s timer, to cancel it by. */
export const requestTimerId = (correlationId: string) => `request:${correlationId}`;

/** Arms a newly admitted request's timeout, or cancels the one a response answers. */
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
  } else if (record.kind === 'response' && record.correlation_id !== undefined) {
    step.enqueue.cancel(requestTimerId(record.correlation_id));
  }
}

/** A request's timer fired: unless it was answered, it is closed and its requester told. */
export function expireRequest(step: SupervisorStep, correlationId: string): void {
  const open = step.context.ledger.expire(correlationId);
  if (!open) return;
  const rejected: SupervisorRejectedEvent = {
    type: 'supervisor.rejected',
    error: { code: 'request_timeout', message: `${open.to} did not answer request ${correlationId} in time.` },
    requestId: correlationId,
  };
  refuse(step, open.requester, rejected);
}
