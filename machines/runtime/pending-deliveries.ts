import type { RoutedRecord } from '../../protocol/runtime/routing.ts';

/** An admitted envelope waiting for its journal ack (before delivery, or before it is confirmed). */
export interface PendingDelivery {
  ticket: number;
  partition: string;
  record: RoutedRecord;
  /** The envelope's id and sender, as its system's addressing read them (kept here, never journaled twice). */
  id: string;
  sender: string;
  /** Child ids to deliver to; empty for an external address. */
  targets: readonly string[];
  /** When the envelope expires (ms since the epoch), checked again if its delivery waits for the journal. */
  expiresAt?: number | undefined;
  /**
   * Appended before (a redelivery): not appended again. Durable at once, or, while the first
   * append of its id is still in flight, when that one is (and refused if it fails).
   */
  journaled?: boolean;
  /** Handed to its targets at admission (pipelined delivery); the ack only confirms it. */
  deliveredEarly?: boolean;
  settled?: { ok: true } | { ok: false; message: string };
}

/** How many delivered slots may pile up at the front before the array is compacted. */
const COMPACT_AFTER = 1024;

/**
 * The admitted envelopes awaiting their journal ack, by ticket. Tickets are given one after the
 * other in routing order and leave in that order, so an array from the oldest one serves, with
 * no hashing per envelope: a ticket's slot is its distance from the first ticket kept.
 */
export class PendingDeliveries {
  #slots: (PendingDelivery | undefined)[] = [];
  /** Index of the oldest undelivered slot. */
  #head = 0;
  /** Ticket of `#slots[0]`. */
  #base = 1;

  /** How many wait (settled or not) to be delivered. */
  get size(): number {
    return this.#slots.length - this.#head;
  }

  /** Adds the next ticket's delivery; tickets must come one after the other. */
  add(pending: PendingDelivery): void {
    if (pending.ticket !== this.#base + this.#slots.length) {
      throw new Error(`Ticket ${pending.ticket} is out of order: the next one is ${this.#base + this.#slots.length}.`);
    }
    this.#slots.push(pending);
  }

  /** The waiting delivery of `ticket`, if it has not been delivered yet (a delivered one's slot is cleared). */
  get(ticket: number): PendingDelivery | undefined {
    return this.#slots[ticket - this.#base];
  }

  /** Removes and returns the oldest deliveries as long as they are settled: what is due, in routing order. */
  takeSettled(): PendingDelivery[] {
    const due: PendingDelivery[] = [];
    for (let p = this.#slots[this.#head]; p?.settled; p = this.#slots[this.#head]) {
      due.push(p);
      this.#slots[this.#head++] = undefined;
    }
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,ArithmeticOperator,BlockStatement: when (or whether) it compacts changes no answer, only memory (never compacting lets the array grow without bound); every ticket reads the same either way
    if (this.#head >= COMPACT_AFTER && this.#head * 2 >= this.#slots.length) {
      this.#slots.splice(0, this.#head);
      this.#base += this.#head;
      this.#head = 0;
    }
    return due;
  }

  /** The ticket of the append of `id` still in flight (not a redelivery, not settled), if any. */
  appending(id: string): number | undefined {
    for (let index = this.#head; index < this.#slots.length; index++) {
      const p = this.#slots[index];
      if (p && !p.journaled && !p.settled && p.id === id) return p.ticket;
    }
    return undefined;
  }
}
