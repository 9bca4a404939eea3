import { z } from 'zod';
import { RefusedRecordSchema, type RefusedRecord } from './refused-record.ts';
import { RoutedRecordSchema, type RoutedRecord } from './routing.ts';

/*
 * What acknowledged delivery keeps in a run's journal beside the routed envelopes: each delivery
 * that waits for an ack with its deadline, and how each (message id, receiver) ended: acked,
 * given up, or expired before a redelivery. Readers of a journal that want
 * only the envelopes keep the entries `isRoutedRecord` accepts (not refused envelopes either).
 */

const Pair = {
  message_id: z.string().min(1),
  receiver: z.string().min(1),
};

/** The envelope was delivered (`attempt` 1) or redelivered to `receiver`, who must ack by `due_at` (the clock's ms). */
export const AckArmedRecordSchema = z.strictObject({
  kind: z.literal('ack.armed'),
  ...Pair,
  attempt: z.number().int().positive(),
  due_at: z.number(),
});

/** `receiver` took the envelope from its mailbox and started on it, at delivery number `attempt`. */
export const AckAckedRecordSchema = z.strictObject({
  kind: z.literal('ack.acked'),
  ...Pair,
  attempt: z.number().int().positive(),
});

/** `receiver` never acked, after `attempts` deliveries: reported to the system's dead-letter address. */
export const AckUndeliverableRecordSchema = z.strictObject({
  kind: z.literal('ack.undeliverable'),
  ...Pair,
  attempts: z.number().int().positive(),
});

/** The envelope expired before its redelivery number `attempt` to `receiver`: not redelivered, tracked no more. */
export const AckExpiredRecordSchema = z.strictObject({
  kind: z.literal('ack.expired'),
  ...Pair,
  attempt: z.number().int().positive(),
});

export const AckRecordSchema = z.discriminatedUnion('kind', [
  AckArmedRecordSchema,
  AckAckedRecordSchema,
  AckUndeliverableRecordSchema,
  AckExpiredRecordSchema,
]);
export type AckRecord = z.infer<typeof AckRecordSchema>;

/**
 * Anything a run's journal holds: a routed envelope, a record of acknowledged delivery, or (where
 * the system opts in) an envelope refused at admission.
 */
export const JournalRecordSchema = z.union([RoutedRecordSchema, AckRecordSchema, RefusedRecordSchema]);
export type JournalRecord = RoutedRecord | AckRecord | RefusedRecord;

/** Whether a journal record is a routed envelope (not an ack record, not a refused envelope). */
export function isRoutedRecord(record: JournalRecord): record is RoutedRecord {
  return !record.kind.startsWith('ack.') && record.kind !== 'refused';
}

/** Whether a journal record is a record of acknowledged delivery (`ack.*`). */
export function isAckRecord(record: JournalRecord): record is AckRecord {
  return record.kind.startsWith('ack.');
}

/** Whether a journal record is an envelope refused at admission. */
export function isRefusedRecord(record: JournalRecord): record is RefusedRecord {
  return record.kind === 'refused';
}
