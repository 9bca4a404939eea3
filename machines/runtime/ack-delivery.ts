import { backoffDelay, type BackoffPolicy } from '../../actors/runtime/backoff.ts';
import type { AckRecord, JournalRecord } from '../../protocol/runtime/ack-record.ts';
import type { RoutedRecord } from '../../protocol/runtime/routing.ts';
import { AckLedger, type AckPolicy, type TrackedAck } from './ack-ledger.ts';
import { ackJournalReplay, type ReadRoutedRecord } from './ack-journal-replay.ts';

/**
 * A system's acknowledged delivery (spec 004): how redeliveries back off, and what is sent when a
 * receiver never acked. Whether an envelope needs an ack, its timeout and retries, is read by the
 * system's addressing (`addressing.ack`); acknowledged delivery runs only where it is declared.
 */
export interface AckOptions {
  /** Between a missed ack and the redelivery; default from 1 s, doubling, at most 30 s, jittered. */
  backoff?: BackoffPolicy;
  /** Draws the jitter; `Math.random` by default (seed it in tests). */
  random?: () => number;
  /**
   * The dead letter: the envelope the system sends when `receiver` never acked `original` after
   * `attempts` deliveries (spec 004: an `escalation` to chief-orchestration). It is routed,
   * validated and journaled like any envelope, so its edge must be in the routing table. Without
   * it the give-up is only journaled, emitted and told to the original sender. `id` is derived
   * from the original's id and `receiver` (the same on every run): used as the dead letter's
   * message id, a give-up replayed after a restart is dropped as a duplicate, not sent twice.
   * @example
   * deadLetter: (original, receiver, attempts, id) => ({ message_id: id, from_agent: 'supervisor', to_agent: 'chief', data_type: 'escalation', payload: { receiver, attempts } })
   */
  deadLetter?: (original: unknown, receiver: string, attempts: number, id: string) => unknown;
}

/** What the supervisor keeps to redeliver an envelope and to report on it. */
export interface AckItem {
  id: string;
  partition: string;
  record: RoutedRecord;
  sender: string;
  /** When the envelope expires (ms since the epoch, as the addressing reads it): it is not redelivered after. */
  expiresAt?: number | undefined;
}

/**
 * One step of acknowledged delivery for the supervisor to carry out. A `journal` effect with a
 * `ticket` closes a pair (`ack.undeliverable`, `ack.expired`): its announcement waits until that
 * append is acknowledged (see {@link AckDelivery.settled}).
 */
export type AckEffect =
  | { type: 'journal'; partition: string; record: AckRecord; ticket?: number }
  | { type: 'redeliver'; receiver: string; item: AckItem }
  /** Its redelivery came due past the envelope's expiry: not redelivered, no longer tracked for `receiver`. */
  | { type: 'expired'; receiver: string; item: AckItem }
  | { type: 'undeliverable'; receiver: string; attempts: number; item: AckItem }
  /** A give-up a restored journal holds without its dead letter: the dead letter only (it may have been announced). */
  | { type: 'deadLetter'; receiver: string; attempts: number; item: AckItem };

const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1_000, maxMs: 30_000 };

/** An announcement (a give-up, an expiry) waiting for the append of the record that closed its pair. */
interface Closing {
  announce: Extract<AckEffect, { type: 'expired' | 'undeliverable' }>;
  entry: TrackedAck<AckItem>;
}

const armedRecord = (entry: TrackedAck<AckItem>): AckRecord => ({
  kind: 'ack.armed',
  message_id: entry.messageId,
  receiver: entry.receiver,
  attempt: entry.attempts,
  due_at: entry.dueAt,
});

/**
 * The supervisor's side of acknowledged delivery, around an {@link AckLedger}: it turns
 * deliveries, acks, throttles and the passing of time into effects (journal an ack record,
 * redeliver under the same id, report undeliverable or expired), and re-arms pending acks from a
 * restored run's journal with their absolute deadlines (XState does not restore delayed events).
 * A give-up or an expiry is announced only once the record that closes its pair is durable, so a
 * restart never announces it again.
 */
export class AckDelivery {
  readonly ledger: AckLedger<AckItem>;
  /** When the supervisor's ack timer is set to fire, if it is. */
  timerAt: number | undefined;
  readonly #backoff: BackoffPolicy;
  readonly #random: (() => number) | undefined;
  /** By journal ticket: announcements waiting for their closing record's append. */
  readonly #closing = new Map<number, Closing>();
  /** Tickets of closing records count down from -1, apart from the supervisor's (positive) ones. */
  #nextTicket = -1;
  /** Give-ups of a restored run whose dead letter never reached the journal: announced again at once. */
  #replay: AckEffect[] = [];

  constructor(options: AckOptions = {}) {
    this.#backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.#random = options.random;
    this.ledger = new AckLedger({ backoff: this.#backoff, ...(this.#random ? { random: this.#random } : {}) });
  }

  /** How many announcements wait for their closing record to be durable. */
  get closing(): number {
    return this.#closing.size;
  }

  /** When the ack timer should fire: at once for a replay, else the ledger's earliest deadline. */
  nextDueAt(): number | undefined {
    return this.#replay.length > 0 ? Number.NEGATIVE_INFINITY : this.ledger.nextDueAt();
  }

  /** The record journaled beside an admitted envelope that needs an ack: its receiver must ack by `now + timeoutMs`. */
  admitted(id: string, receiver: string, policy: AckPolicy, now: number): AckRecord {
    return { kind: 'ack.armed', message_id: id, receiver, attempt: 1, due_at: now + policy.timeoutMs };
  }

  /** The envelope reached `receiver`: its ack timer runs from now. */
  delivered(item: AckItem, receiver: string, policy: AckPolicy, now: number): void {
    this.ledger.delivered(item.id, receiver, policy, now, item);
  }

  /** The receiver acked: journal it, the first time only. */
  acked(id: string, receiver: string): AckEffect[] {
    const entry = this.ledger.acked(id, receiver);
    if (!entry) return [];
    const record: AckRecord = { kind: 'ack.acked', message_id: id, receiver, attempt: entry.attempts };
    return [{ type: 'journal', partition: entry.item.partition, record }];
  }

  /** Whether `(id, receiver)` awaits an ack (a `throttled` report of it is the ledger's to retry). */
  tracks(id: string, receiver: string): boolean {
    return this.ledger.get(id, receiver) !== undefined;
  }

  /** The receiver was too busy: the redelivery backs off, or this was the last delivery. */
  throttled(id: string, receiver: string, now: number, retryAfterMs: number): AckEffect[] {
    const throttled = this.ledger.throttled(id, receiver, now, retryAfterMs);
    return throttled?.gaveUp ? [this.#undeliverable(throttled.entry)] : [];
  }

  /**
   * Journal outcomes: the announcement of each closing record now durable, in ticket order of
   * `acked`. A closing record whose append failed announces nothing; its pair is tracked again
   * and closed again after a backoff (the journal may be back by then).
   */
  settled(acked: readonly number[], failed: readonly { ticket: number }[], now: number): AckEffect[] {
    if (this.#closing.size === 0) return [];
    const announced: AckEffect[] = [];
    for (const ticket of acked) {
      const closing = this.#take(ticket);
      if (closing) announced.push(closing.announce);
    }
    for (const { ticket } of failed) {
      const closing = this.#take(ticket);
      if (!closing) continue;
      const { entry } = closing;
      const dueAt = now + backoffDelay(this.#backoff, entry.attempts, this.#random);
      // A give-up is due again as a missed last delivery; an expiry as the redelivery it stopped.
      if (closing.announce.type === 'undeliverable') this.ledger.restore({ ...entry, phase: 'awaitingAck', dueAt });
      else this.ledger.restore({ ...entry, attempts: entry.attempts - 1, phase: 'backingOff', dueAt });
    }
    return announced;
  }

  /**
   * An envelope that needs an ack expired while its delivery waited for the journal: each
   * receiver's `ack.armed` (journaled at admission) is closed with `ack.expired`, and each expiry
   * announced once that is durable, as for an expiry before a redelivery.
   */
  expiredBeforeDelivery(item: AckItem, receivers: readonly string[], policy: AckPolicy, now: number): AckEffect[] {
    return receivers.map((receiver) => {
      const entry: TrackedAck<AckItem> = {
        messageId: item.id,
        receiver,
        policy,
        attempts: 1,
        phase: 'awaitingAck',
        dueAt: now,
        item,
      };
      const record: AckRecord = { kind: 'ack.expired', message_id: item.id, receiver, attempt: 1 };
      return this.#close(entry, record, { type: 'expired', receiver, item });
    });
  }

  /**
   * A delivery revoked (its append failed): none of its receivers is waited for, and a give-up or
   * expiry of it still waiting for its closing record is not announced (its sender hears only the
   * failure).
   */
  revoked(id: string): void {
    this.ledger.cancel(id);
    for (const [ticket, closing] of this.#closing) if (closing.entry.messageId === id) this.#closing.delete(ticket);
  }

  /**
   * What fell due by `now`: redeliveries (each journaled with its new deadline), give-ups, and
   * redeliveries of envelopes past their expiry (dropped for that receiver, `ack.expired`); the
   * last two are closing records, announced once durable. A restored run's replays come first.
   */
  due(now: number): AckEffect[] {
    const effects = this.#replay;
    this.#replay = [];
    for (const { type, entry } of this.ledger.due(now)) {
      if (type === 'undeliverable') {
        effects.push(this.#undeliverable(entry));
        continue;
      }
      const { expiresAt } = entry.item;
      if (expiresAt !== undefined && expiresAt <= now) {
        this.ledger.forget(entry.messageId, entry.receiver);
        const { messageId: message_id, receiver, attempts: attempt, item } = entry;
        const record: AckRecord = { kind: 'ack.expired', message_id, receiver, attempt };
        effects.push(this.#close(entry, record, { type: 'expired', receiver, item }));
        continue;
      }
      effects.push({ type: 'journal', partition: entry.item.partition, record: armedRecord(entry) });
      effects.push({ type: 'redeliver', receiver: entry.receiver, item: entry.item });
    }
    return effects;
  }

  /**
   * Re-arms what a restored run's journal left pending, at the journaled deadlines (at once if
   * they passed), and sends at once the dead letter of each give-up whose dead letter never
   * reached the journal (see {@link ackJournalReplay}: `read` and `unsent` are its).
   */
  restore(
    records: readonly JournalRecord[],
    read: ReadRoutedRecord,
    unsent?: (id: string, receiver: string) => boolean,
  ): void {
    const { pending, unannounced } = ackJournalReplay(records, read, unsent);
    for (const entry of pending) this.ledger.restore(entry);
    for (const giveUp of unannounced) this.#replay.push({ type: 'deadLetter', ...giveUp });
  }

  #undeliverable(entry: TrackedAck<AckItem>): AckEffect {
    const { messageId: message_id, receiver, attempts, item } = entry;
    const record: AckRecord = { kind: 'ack.undeliverable', message_id, receiver, attempts };
    return this.#close(entry, record, { type: 'undeliverable', receiver, attempts, item });
  }

  /** Journals the record that closes `entry`'s pair, its announcement held until that is durable. */
  #close(entry: TrackedAck<AckItem>, record: AckRecord, announce: Closing['announce']): AckEffect {
    const ticket = this.#nextTicket--;
    this.#closing.set(ticket, { announce, entry });
    return { type: 'journal', partition: entry.item.partition, record, ticket };
  }

  #take(ticket: number): Closing | undefined {
    const closing = this.#closing.get(ticket);
    if (closing) this.#closing.delete(ticket);
    return closing;
  }
}
