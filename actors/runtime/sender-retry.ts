import type { AgentOutcome } from '../../protocol/runtime/agent-report.ts';
import type { RoutingError } from '../../protocol/runtime/routing.ts';
import { backoffDelay, type BackoffPolicy } from './backoff.ts';

/** What a sender knows when its work came back unfinished and it thinks of sending it again. */
export interface SenderRetryInput {
  policy: BackoffPolicy;
  /** The retry this would be: 1 for the first. */
  attempt: number;
  /** Retries allowed at most (the original send not counted). */
  maxRetries: number;
  /** Now and the original deadline, on one clock (milliseconds). */
  now: number;
  deadline: number;
  /** The receiver's own hint (a `throttled` outcome's `retryAfterMs`): never retry sooner. */
  retryAfterMs?: number;
  random?: () => number;
}

/**
 * The sender's side of back-pressure (DESIGN "Retries"): how long to wait before retry number
 * `attempt`, the larger of `backoffDelay` and the receiver's `retryAfterMs`; undefined when no
 * retry is left or when it could not even start before the original deadline (give up then, do
 * not stretch the deadline). A retry is a new message id with the same correlation.
 *
 * @example
 * const delay = senderRetryDelay({ policy, attempt, maxRetries: 3, now, deadline, retryAfterMs });
 * if (delay === undefined) reportFailure();
 * else schedule(delay, () => send({ ...envelope, message_id: newId() }));
 */
export function senderRetryDelay(input: SenderRetryInput): number | undefined {
  if (input.attempt > input.maxRetries) return undefined;
  const delay = Math.max(input.retryAfterMs ?? 0, backoffDelay(input.policy, input.attempt, input.random));
  return input.now + delay < input.deadline ? delay : undefined;
}

/**
 * Whether an outcome is worth a retry: only transient ones are (the receiver was too busy, or
 * its brain ran out of time); a validation failure, an error or a cancel would end the same way.
 */
export function isTransientOutcome(outcome: AgentOutcome): boolean {
  return outcome.status === 'throttled' || (outcome.status === 'failed' && outcome.failure.kind === 'timeout');
}

/** Whether a supervisor's refusal is worth a retry: the receiver was busy, the journal or it was slow. */
export function isTransientRefusal(error: RoutingError): boolean {
  return error.code === 'throttled' || error.code === 'journal_unavailable' || error.code === 'request_timeout';
}

/**
 * The hook a sending agent calls when the supervisor refuses what it sent (`supervisor.rejected`):
 * how long to wait before sending it again, through {@link senderRetryDelay} with the refusal's
 * own `retryAfterMs` (a receiver that was `throttled`); undefined when the refusal is not
 * transient, no retry is left or the retry could not start before the deadline. The retry is a
 * new message id with the same correlation (the refused id may be journaled already). A
 * delegation tree retries throttled delegations by itself; this is for any other sender.
 *
 * @example
 * on: { 'supervisor.rejected': { actions: enqueueActions(({ context, event, enqueue }) => {
 *   const delay = retryDelayAfterRefusal(event.error, { policy, attempt: context.retries + 1, maxRetries: 3, now: now(), deadline: context.deadline });
 *   if (delay !== undefined) enqueue.raise({ type: 'sender.resend' }, { delay });
 * }) } }
 */
export function retryDelayAfterRefusal(
  error: RoutingError,
  retry: Omit<SenderRetryInput, 'retryAfterMs'>,
): number | undefined {
  if (!isTransientRefusal(error)) return undefined;
  return senderRetryDelay(error.retryAfterMs === undefined ? retry : { ...retry, retryAfterMs: error.retryAfterMs });
}
