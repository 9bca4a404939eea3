import { backoffDelay, type BackoffPolicy } from '../../actors/runtime/backoff.ts';
import { DueQueue } from '../../actors/runtime/due-queue.ts';
import type { AckPolicy } from '../../protocol/runtime/ack-policy.ts';

/*
 * An envelope's `AckPolicy` (read by its system's addressing): its receiver must ack within
 * `timeoutMs` of each delivery, and it is delivered again up to `retries` times (so `retries + 1`
 * deliveries at most) before it is undeliverable.
 */
export type { AckPolicy };

/** One (message id, receiver) awaiting its ack, or waiting out a backoff before its redelivery. */
export interface TrackedAck<T = unknown> {
  messageId: string;
  receiver: string;
  policy: AckPolicy;
  /** Deliveries so far, the first one included. */
  attempts: number;
  /** `awaitingAck`: delivered, acked by `dueAt` or timed out. `backingOff`: redelivered at `dueAt`. */
  phase: 'awaitingAck' | 'backingOff';
  /** Absolute time (the clock's milliseconds) when this entry falls due. */
  dueAt: number;
  /** What the caller needs to redeliver it (the routed record). */
  item: T;
}

/** What falls due: deliver the same message id again, or give up on this receiver. */
export type AckDue<T = unknown> =
  { type: 'redeliver'; entry: TrackedAck<T> } | { type: 'undeliverable'; entry: TrackedAck<T> };

/** How the ledger spaces redeliveries; `random` is injectable so tests get exact delays. */
export interface AckLedgerOptions {
  backoff: BackoffPolicy;
  random?: () => number;
}

const keyOf = (messageId: string, receiver: string) => `${messageId}\u0000${receiver}`;

/**
 * The pure bookkeeping of acknowledged delivery: each (message id, receiver) that requires an
 * ack, on its own, from its delivery to exactly one end, `acked` or `undeliverable`. It reads no
 * clock: callers pass `now` and ask what fell `due(now)`; after a missed ack it waits a backoff
 * (`backoffDelay`, exponential with jitter) from the deadline, then asks for a redelivery under
 * the same message id, `retries` times at most. The ledger is mutable on purpose (one entry per
 * pending ack, nothing copied per event), and its due times sit in a min-heap (`DueQueue`), so
 * `nextDueAt` and `due` cost O(log n) per entry that falls due, not a scan of every pending ack.
 *
 * @example
 * const ledger = new AckLedger<RoutedRecord>({ backoff: { baseMs: 1_000, maxMs: 30_000 } });
 * ledger.delivered('m1', 'backend', { timeoutMs: 30_000, retries: 3 }, clock.now(), record);
 * ledger.acked('m1', 'backend'); // the entry, once; undefined for an unknown or settled pair
 * for (const due of ledger.due(clock.now())) redeliverOrReport(due);
 */
export class AckLedger<T = unknown> {
  readonly #entries = new Map<string, TrackedAck<T>>();
  /** The `dueAt` of each entry, by key. */
  readonly #due = new DueQueue<string>();
  readonly #backoff: BackoffPolicy;
  readonly #random: () => number;

  constructor(options: AckLedgerOptions) {
    this.#backoff = options.backoff;
    this.#random = options.random ?? Math.random;
  }

  /** How many (message id, receiver) pairs await an ack or a redelivery. */
  get size(): number {
    return this.#entries.size;
  }

  /** The entry of a pair still pending, if any. */
  get(messageId: string, receiver: string): TrackedAck<T> | undefined {
    return this.#entries.get(keyOf(messageId, receiver));
  }

  /** Every pending entry (for journaling at a restart and for tests). */
  pending(): IterableIterator<TrackedAck<T>> {
    return this.#entries.values();
  }

  /**
   * A first delivery to `receiver`: its ack is due by `now + policy.timeoutMs`. A pair already
   * tracked is left as it is (the ledger's own redeliveries count themselves).
   */
  delivered(messageId: string, receiver: string, policy: AckPolicy, now: number, item: T): TrackedAck<T> {
    const key = keyOf(messageId, receiver);
    const known = this.#entries.get(key);
    if (known) return known;
    const entry: TrackedAck<T> = {
      messageId,
      receiver,
      policy,
      attempts: 1,
      phase: 'awaitingAck',
      dueAt: now + policy.timeoutMs,
      item,
    };
    this.#entries.set(key, entry);
    this.#due.set(key, entry.dueAt);
    return entry;
  }

  /** Puts back an entry as it was journaled (after a restart), with its absolute `dueAt`. */
  restore(entry: TrackedAck<T>): void {
    const key = keyOf(entry.messageId, entry.receiver);
    this.#entries.set(key, { ...entry });
    this.#due.set(key, entry.dueAt);
  }

  /**
   * The receiver acked: the pair is settled. Returns its entry the first time only; undefined
   * for a pair never tracked, acked already or given up (a late ack changes nothing).
   */
  acked(messageId: string, receiver: string): TrackedAck<T> | undefined {
    const key = keyOf(messageId, receiver);
    const entry = this.#entries.get(key);
    if (entry) this.#forget(key);
    return entry;
  }

  /**
   * The receiver was too busy to take it (`throttled`): no ack will come for this delivery, so it
   * counts as missed now, and its redelivery waits at least `retryAfterMs`. Returns the entry and
   * whether that was its last delivery (`gaveUp`: it left the ledger, report it undeliverable);
   * undefined for a pair not awaiting an ack.
   */
  throttled(
    messageId: string,
    receiver: string,
    now: number,
    retryAfterMs = 0,
  ): { entry: TrackedAck<T>; gaveUp: boolean } | undefined {
    const entry = this.#entries.get(keyOf(messageId, receiver));
    if (!entry || entry.phase !== 'awaitingAck') return undefined;
    return { entry, gaveUp: this.#missed(entry, now, retryAfterMs) };
  }

  /** Forgets one receiver of a message (its envelope expired before a redelivery): nothing more is due for it. */
  forget(messageId: string, receiver: string): void {
    this.#forget(keyOf(messageId, receiver));
  }

  /** Forgets every receiver of a message whose delivery was revoked (its append failed). */
  cancel(messageId: string): void {
    for (const [key, entry] of this.#entries) if (entry.messageId === messageId) this.#forget(key);
  }

  /** The earliest `dueAt` of all pending entries; undefined when nothing is pending. */
  nextDueAt(): number | undefined {
    return this.#due.nextAt();
  }

  /**
   * What fell due by `now`, oldest first: a missed ack with retries left starts its backoff
   * (measured from its deadline), and a backoff that ran out is a redelivery, due for an ack
   * `timeoutMs` from `now`; a missed ack with none left is `undeliverable` and leaves the ledger.
   */
  due(now: number): AckDue<T>[] {
    const out: AckDue<T>[] = [];
    const ripe = this.#due.take(now).map((key) => this.#entries.get(key)!);
    for (const entry of ripe) {
      if (entry.phase === 'awaitingAck' && this.#missed(entry, entry.dueAt, 0)) {
        out.push({ type: 'undeliverable', entry });
        continue;
      }
      if (entry.dueAt > now) continue;
      entry.attempts += 1;
      entry.phase = 'awaitingAck';
      this.#setDueAt(entry, now + entry.policy.timeoutMs);
      out.push({ type: 'redeliver', entry });
    }
    return out;
  }

  /** A delivery that will not be acked: wait a backoff before the next one, or give up (true). */
  #missed(entry: TrackedAck<T>, at: number, atLeastMs: number): boolean {
    if (entry.attempts > entry.policy.retries) {
      this.#forget(keyOf(entry.messageId, entry.receiver));
      return true;
    }
    entry.phase = 'backingOff';
    this.#setDueAt(entry, at + Math.max(atLeastMs, backoffDelay(this.#backoff, entry.attempts, this.#random)));
    return false;
  }

  #setDueAt(entry: TrackedAck<T>, dueAt: number): void {
    entry.dueAt = dueAt;
    this.#due.set(keyOf(entry.messageId, entry.receiver), dueAt);
  }

  #forget(key: string): void {
    this.#entries.delete(key);
    this.#due.delete(key);
  }
}
