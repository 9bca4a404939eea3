import { z } from 'zod';

/**
 * How a delegated piece of work ended: spec 002's outcome scale, which DESIGN adopts for every
 * system. Every status ends a delegation but `throttled`, which is transient (the receiver was
 * overloaded: the sender retries with backoff inside the deadline, DESIGN "Retries").
 * `blocked` and `needs_clarification` end the delegation too: the owner answers them with a new
 * delegation (a retry, a clarified request), never by reopening the old one.
 */
export const OutcomeStatusSchema = z.enum([
  'success',
  'partial',
  'failed',
  'blocked',
  'needs_clarification',
  'timeout',
  'cancelled',
  'throttled',
]);
export type OutcomeStatus = z.infer<typeof OutcomeStatusSchema>;

/** A status that ends a delegation: every one but `throttled`. */
export type TerminalStatus = Exclude<OutcomeStatus, 'throttled'>;

/** True for a status that ends a delegation (all but `throttled`, which asks for a retry). */
export function isTerminalStatus(status: OutcomeStatus): status is TerminalStatus {
  return status !== 'throttled';
}
