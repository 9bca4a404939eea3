/**
 * The agent worker's mailbox rules, as pure functions: what a request arriving now becomes
 * (queued, refused as `throttled`, acked again, or dropped as a redelivery), and the bounded
 * memory of request ids already run.
 */

/** What the worker keeps of one request waiting for, or holding, the brain. */
export interface MailboxRequest {
  requestId: string;
  input: unknown;
  /** The sender wants `agent.ack` when the request starts (acknowledged delivery). */
  ack?: true;
}

/** The part of the worker's state the mailbox rules read. */
export interface MailboxState {
  queue: readonly MailboxRequest[];
  current: MailboxRequest | null;
  /** Ids of requests that ran to a report (completed or failed), oldest first, bounded. */
  done: readonly string[];
  maxQueued: number;
}

/**
 * What to do with an arriving request:
 * - `enqueue`: new, and there is room (an idle worker takes it at once);
 * - `throttle`: the worker is busy and `maxQueued` requests wait already: report `throttled` now,
 *   never queue it, never ack it;
 * - `ackAgain`: a redelivery of a request that started or ran already (its ack was late or lost):
 *   ack it again so that the sender stops redelivering, and run nothing;
 * - `drop`: a redelivery of a request still waiting in the queue (its ack comes when it starts),
 *   or of one that started or ran and wants no ack.
 */
export type MailboxVerdict = 'enqueue' | 'throttle' | 'ackAgain' | 'drop';

/** Decides what an arriving request becomes (see {@link MailboxVerdict}); each id runs once. */
export function mailboxVerdict(state: MailboxState, request: { requestId: string; ack?: true }): MailboxVerdict {
  const { requestId } = request;
  if (state.queue.some((queued) => queued.requestId === requestId)) return 'drop';
  if (state.current?.requestId === requestId || state.done.includes(requestId)) {
    return request.ack ? 'ackAgain' : 'drop';
  }
  if (state.current !== null && state.queue.length >= state.maxQueued) return 'throttle';
  return 'enqueue';
}

/** `done` with `requestId` added last, keeping the newest `limit` ids. */
export function rememberDone(done: readonly string[], requestId: string, limit: number): string[] {
  const next = done.length >= limit ? done.slice(done.length - limit + 1) : [...done];
  next.push(requestId);
  return next;
}
