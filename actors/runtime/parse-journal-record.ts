import type { z } from 'zod';
import { DataFileCorruptError } from '../../protocol/runtime/runtime-error.ts';
import type { JournalEntry } from './journal.ts';

/**
 * Parses one journal entry read back from `partition` with `schema`; an entry that does not fit
 * throws `DataFileCorruptError` naming the partition, the entry's seq and the first bad field
 * (`what` says what the entry should have been). Every service that replays a journal reads
 * through this, so a damaged or foreign line stops the replay instead of being half-applied.
 *
 * @example
 * for (const entry of await journal.read(partition)) apply(parseJournalRecord(RecordSchema, entry, partition, 'task queue record'));
 */
export function parseJournalRecord<S extends z.ZodType>(
  schema: S,
  entry: JournalEntry<unknown>,
  partition: string,
  what: string,
): z.output<S> {
  const parsed = schema.safeParse(entry.data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new DataFileCorruptError(
    `journal partition ${partition}`,
    `entry ${entry.seq} is not a ${what}: ${issue?.path.join('.') || 'entry'} ${issue?.message ?? ''}`.trim(),
  );
}
