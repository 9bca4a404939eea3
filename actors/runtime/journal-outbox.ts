import type { JournalRecord } from '../../protocol/runtime/ack-record.ts';

/** One partition's share of an outbox, in routing order. */
interface OutboxPartition {
  tickets: number[];
  records: JournalRecord[];
}

/**
 * The appends a supervisor hands its journal writer as one batch. The supervisor fills the open
 * outbox as it admits envelopes and tells the writer once, when it opens one; the writer takes it
 * in a microtask, after the supervisor's current burst of steps, and from then on the supervisor
 * fills a new one. So a burst of envelopes costs the writer one event, not one per envelope, and
 * goes to the journal as one `appendMany` per partition.
 */
export class JournalOutbox {
  /** Tickets and records per partition, each in the order they were added. */
  readonly partitions = new Map<string, OutboxPartition>();
  /** Whether an ack is wanted even with nothing to write (a redelivery waits its turn in one). */
  wantsAck = false;
  #taken = false;

  /** Whether the writer took it: nothing may be added any more. */
  get taken(): boolean {
    return this.#taken;
  }

  /**
   * Adds one record to append to `partition`; its `ticket` comes back in the ack. A record
   * without a ticket (an ack record) is written in its turn and acked with nobody waiting.
   */
  add(ticket: number | undefined, partition: string, record: JournalRecord): void {
    this.#open();
    let entry = this.partitions.get(partition);
    if (!entry) this.partitions.set(partition, (entry = { tickets: [], records: [] }));
    if (ticket !== undefined) entry.tickets.push(ticket);
    entry.records.push(record);
  }

  /** Asks for an ack after everything added before, even if nothing is added. */
  requestAck(): void {
    this.#open();
    this.wantsAck = true;
  }

  /** The writer's side: closes the outbox for good and returns it. */
  take(): this {
    this.#taken = true;
    return this;
  }

  #open(): void {
    if (this.#taken) throw new Error('This journal outbox was taken by the writer; add to a new one.');
  }
}
