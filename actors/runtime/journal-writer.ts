import { fromCallback } from 'xstate';
import type { Journal } from './journal.ts';
import type { RoutedRecord } from '../../protocol/runtime/routing.ts';

/** Asks the journal writer to append one routed record; `ticket` comes back in the ack. */
interface JournalAppendEvent {
  type: 'journal.append';
  ticket: number;
  partition: string;
  record: RoutedRecord;
}

/** Asks for an ack event even with nothing new on disk (to release deliveries waiting in order). */
interface JournalFlushEvent {
  type: 'journal.flush';
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
 * Creates the callback actor logic through which the supervisor writes its journal. Appends that
 * arrive in the same tick go to the journal as one `appendMany` per partition (one promise per
 * partition, not per envelope), and their acks go back in a few `journal.acked` events, so a
 * burst of envelopes costs few events and few allocations. Order holds: a partition's batches
 * are appended in arrival order, and a flush is acked behind every append before it.
 */
export function createJournalWriter(journal: Journal<RoutedRecord>) {
  return fromCallback<JournalAppendEvent | JournalFlushEvent>(function journalWriter({ receive, sendBack }) {
    let acked: number[] = [];
    let failed: JournalAckEvent['failed'] = [];
    let batch = new Map<string, { tickets: number[]; records: RoutedRecord[] }>();
    let flushes = 0;
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

    const write = () => {
      const partitions = batch;
      const wantsAck = flushes > 0;
      batch = new Map();
      flushes = 0;
      const appends = [...partitions].map(([partition, { tickets, records }]) =>
        journal.appendMany(partition, records).then(
          () => acked.push(...tickets),
          (error: unknown) => {
            const message = error instanceof Error ? error.message : String(error);
            for (const ticket of tickets) failed.push({ ticket, message });
          },
        ),
      );
      // Each tick's batch is acked after the batches before it, so deliveries keep routing order.
      writing = Promise.all([writing, ...appends]).then(() => (partitions.size > 0 || wantsAck) && ack());
    };

    receive((event) => {
      if (batch.size === 0 && flushes === 0) queueMicrotask(write);
      if (event.type === 'journal.flush') {
        flushes++;
        return;
      }
      let entry = batch.get(event.partition);
      if (!entry) batch.set(event.partition, (entry = { tickets: [], records: [] }));
      entry.tickets.push(event.ticket);
      entry.records.push(event.record);
    });
    return () => {
      stopped = true;
    };
  });
}
