import { fromCallback } from 'xstate';
import type { Journal } from './journal.ts';
import type { JournalOutbox } from './journal-outbox.ts';
import type { JournalRecord } from '../../protocol/runtime/ack-record.ts';

/** Hands the writer an outbox its sender keeps filling until the writer takes it (see `JournalOutbox`). */
interface JournalAppendEvent {
  type: 'journal.append';
  outbox: JournalOutbox;
}

/** Acks for every append that reached the disk since the last ack, and those that failed. */
export interface JournalAckEvent {
  type: 'journal.acked';
  tickets: number[];
  failed: { ticket: number; message: string }[];
}

/**
 * Acks per event. XState runs the effects of one macrostep from an array it shifts, so a single
 * ack delivering tens of thousands of envelopes costs quadratic time; chunks keep it linear.
 */
const ACKS_PER_EVENT = 256;

/**
 * Creates the callback actor logic through which the supervisor writes its journal. Each outbox
 * is taken in the microtask after it was handed over, so everything its sender added in the
 * same tick goes to the journal as one `appendMany` per partition (one promise per partition,
 * not per envelope), and the acks go back in a few `journal.acked` events. Order holds: outboxes
 * are taken in the order they were handed over, a partition's batches are appended in that
 * order, and each outbox is acked after the ones before it.
 */
export function createJournalWriter(journal: Journal<JournalRecord>) {
  return fromCallback<JournalAppendEvent>(function journalWriter({ receive, sendBack }) {
    let acked: number[] = [];
    let failed: JournalAckEvent['failed'] = [];
    let writing: Promise<unknown> = Promise.resolve();
    let stopped = false;

    const ack = () => {
      if (stopped) return;
      for (let i = 0; i === 0 || i < Math.max(acked.length, failed.length); i += ACKS_PER_EVENT) {
        sendBack({
          type: 'journal.acked',
          tickets: acked.slice(i, i + ACKS_PER_EVENT),
          failed: failed.slice(i, i + ACKS_PER_EVENT),
        } satisfies JournalAckEvent);
      }
      acked = [];
      failed = [];
    };

    const write = (outbox: JournalOutbox) => {
      const { partitions } = outbox.take();
      // Files a partition's first append would open are opened while the records are serialized.
      for (const partition of partitions.keys()) journal.prepare?.(partition);
      const appends = [...partitions].map(([partition, { tickets, records }]) =>
        journal.appendMany(partition, records).then(
          () => {
            for (const ticket of tickets) acked.push(ticket);
          },
          (error: unknown) => {
            const message = error instanceof Error ? error.message : String(error);
            for (const ticket of tickets) failed.push({ ticket, message });
          },
        ),
      );
      // Each outbox is acked after the ones before it, so deliveries keep routing order.
      writing = Promise.all([writing, ...appends]).then(ack);
    };

    receive(({ outbox }) => queueMicrotask(() => write(outbox)));
    return () => {
      stopped = true;
    };
  });
}
