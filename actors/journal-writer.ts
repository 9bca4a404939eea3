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

/** Acks for every append that reached the disk since the last ack, and those that failed. */
export interface JournalAckEvent {
  type: 'journal.acked';
  tickets: number[];
  failed: { ticket: number; message: string }[];
}

/**
 * Creates the callback actor logic through which the supervisor writes its journal. Appends go
 * straight to the journal (which batches them into one write); acks that settle in the same
 * tick go back to the parent as one `journal.acked` event, so a burst costs one event, not many.
 */
export function createJournalWriter(journal: Journal<RoutedRecord>) {
  return fromCallback<JournalAppendEvent>(function journalWriter({ receive, sendBack }) {
    let acked: number[] = [];
    let failed: JournalAckEvent['failed'] = [];
    let scheduled = false;
    let stopped = false;
    const flush = () => {
      scheduled = false;
      if (stopped) return;
      const event: JournalAckEvent = { type: 'journal.acked', tickets: acked, failed };
      acked = [];
      failed = [];
      sendBack(event);
    };
    const schedule = () => {
      if (!scheduled) {
        scheduled = true;
        queueMicrotask(flush);
      }
    };
    receive((event) => {
      journal.append(event.partition, event.record).then(
        () => {
          acked.push(event.ticket);
          schedule();
        },
        (error: unknown) => {
          failed.push({ ticket: event.ticket, message: error instanceof Error ? error.message : String(error) });
          schedule();
        },
      );
    });
    return () => {
      stopped = true;
    };
  });
}
