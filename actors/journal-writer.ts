import { fromCallback } from 'xstate';
import type { Journal } from './journal.ts';
import type { RoutedRecord } from '../protocol/routing.ts';

/** Asks the journal writer to append one routed record; `ticket` comes back in the ack. */
export interface JournalAppendEvent {
  type: 'journal.append';
  ticket: number;
  partition: string;
  record: RoutedRecord;
}

/** Asks for an ack event even with nothing new on disk (to release deliveries waiting in order). */
export interface JournalFlushEvent {
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
 * Creates the callback actor logic through which the supervisor writes its journal. Appends go
 * straight to the journal (which batches them into one write); acks that settle in the same
 * tick go back to the parent in a few `journal.acked` events, so a burst costs few events.
 */
export function createJournalWriter(journal: Journal<RoutedRecord>) {
  return fromCallback<JournalAppendEvent | JournalFlushEvent>(function journalWriter({ receive, sendBack }) {
    let acked: number[] = [];
    let failed: JournalAckEvent['failed'] = [];
    let scheduled = false;
    let stopped = false;
    let pendingWrites: Promise<unknown> = Promise.resolve();
    const flush = () => {
      scheduled = false;
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
    const schedule = () => {
      if (!scheduled) {
        scheduled = true;
        queueMicrotask(flush);
      }
    };
    receive((event) => {
      if (event.type === 'journal.flush') {
        // Behind any append in flight, so the ack keeps routing order.
        pendingWrites.then(schedule);
        return;
      }
      const written = journal.append(event.partition, event.record).then(
        () => {
          acked.push(event.ticket);
          schedule();
        },
        (error: unknown) => {
          failed.push({ ticket: event.ticket, message: error instanceof Error ? error.message : String(error) });
          schedule();
        },
      );
      pendingWrites = written;
    });
    return () => {
      stopped = true;
    };
  });
}
