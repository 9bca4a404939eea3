import { isAckRecord, isRoutedRecord, type AckRecord, type JournalRecord } from '../../protocol/runtime/ack-record.ts';
import type { RoutedRecord } from '../../protocol/runtime/routing.ts';
import type { AckPolicy, TrackedAck } from './ack-ledger.ts';
import type { AckItem } from './ack-delivery.ts';

/** What the supervisor knows of a routed record: its item, and its ack policy (none: it needs no ack). */
export type ReadRoutedRecord = (record: RoutedRecord) => { item: AckItem; policy: AckPolicy | undefined } | undefined;

/** What a restored run's journal leaves to acknowledged delivery. */
export interface AckJournalReplay {
  /** Pairs still awaiting an ack, as their last `ack.armed` left them (absolute `dueAt`). */
  pending: TrackedAck<AckItem>[];
  /** Give-ups journaled without their dead letter: to announce again. */
  unannounced: { receiver: string; attempts: number; item: AckItem }[];
}

/**
 * Reads a run's journal records, in order, for acknowledged delivery: each (message id, receiver)
 * is open from its `ack.armed` until a later `ack.acked`, `ack.undeliverable` or `ack.expired`
 * closes it (a later `ack.armed` opens it again). An envelope whose routed record is missing, or
 * whose policy asks no ack, is skipped. A pair closed by its give-up for which
 * `unsent(id, receiver)` holds (the process died between the give-up's append and its dead
 * letter's) is `unannounced`. The dead letter is looked for in the same records: a system
 * journals it in the original's partition.
 *
 * @example
 * const { pending, unannounced } = ackJournalReplay(records, read, (id, r) => !ids.has(deadLetterId(id, r)));
 */
export function ackJournalReplay(
  records: readonly JournalRecord[],
  read: ReadRoutedRecord,
  unsent: (id: string, receiver: string) => boolean = () => false,
): AckJournalReplay {
  const routed = new Map<string, { item: AckItem; policy: AckPolicy }>();
  const armed = new Map<string, Extract<AckRecord, { kind: 'ack.armed' }>>();
  const gaveUp = new Map<string, Extract<AckRecord, { kind: 'ack.undeliverable' }>>();
  for (const record of records) {
    if (isRoutedRecord(record)) {
      const known = read(record);
      if (known?.policy && !routed.has(known.item.id))
        routed.set(known.item.id, { item: known.item, policy: known.policy });
      continue;
    }
    if (!isAckRecord(record)) continue; // an envelope refused at admission: never delivered
    const key = `${record.message_id}\u0000${record.receiver}`;
    gaveUp.delete(key);
    if (record.kind === 'ack.armed') armed.set(key, record);
    else armed.delete(key);
    if (record.kind === 'ack.undeliverable') gaveUp.set(key, record);
  }
  const pending: TrackedAck<AckItem>[] = [];
  for (const { message_id, receiver, attempt, due_at } of armed.values()) {
    const found = routed.get(message_id);
    if (!found) continue;
    const { policy, item } = found;
    pending.push({
      messageId: message_id,
      receiver,
      policy,
      attempts: attempt,
      phase: 'awaitingAck',
      dueAt: due_at,
      item,
    });
  }
  const unannounced: AckJournalReplay['unannounced'] = [];
  for (const { message_id, receiver, attempts } of gaveUp.values()) {
    const found = routed.get(message_id);
    if (found && unsent(message_id, receiver)) unannounced.push({ receiver, attempts, item: found.item });
  }
  return { pending, unannounced };
}
