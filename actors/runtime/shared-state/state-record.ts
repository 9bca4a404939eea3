import { z } from 'zod';

/** One key of a journaled write: a value, or a deletion; `expiresAt` is absolute clock time. */
export const RecordedKeySchema = z.strictObject({
  key: z.string().min(1),
  value: z.unknown().optional(),
  deleted: z.literal(true).optional(),
  expiresAt: z.number().optional(),
});
export type RecordedKey = z.infer<typeof RecordedKeySchema>;

/** One atomic write: every key it set, under one version (the scope instance's next revision). */
export const WriteRecordSchema = z.strictObject({
  type: z.literal('write'),
  version: z.number().int().positive(),
  writtenBy: z.string(),
  writtenAt: z.number(),
  keys: z.array(RecordedKeySchema).min(1),
});
export type WriteRecord = z.infer<typeof WriteRecordSchema>;

const SnapshotEntrySchema = z.strictObject({
  key: z.string().min(1),
  value: z.unknown().optional(),
  version: z.number().int().positive(),
  writtenBy: z.string(),
  writtenAt: z.number(),
  expiresAt: z.number().optional(),
  deleted: z.literal(true).optional(),
});

/**
 * The first entry of every generation after the first: the scope instance as of `version`, each
 * live key with its kept versions (oldest first), so a generation is read without the ones before.
 */
export const SnapshotRecordSchema = z.strictObject({
  type: z.literal('snapshot'),
  version: z.number().int().nonnegative(),
  generation: z.number().int().positive(),
  keys: z.array(z.array(SnapshotEntrySchema).min(1)),
});
export type SnapshotRecord = z.infer<typeof SnapshotRecordSchema>;

/** What shared state appends to its journal. */
export const StateRecordSchema = z.discriminatedUnion('type', [WriteRecordSchema, SnapshotRecordSchema]);
export type StateRecord = z.infer<typeof StateRecordSchema>;
