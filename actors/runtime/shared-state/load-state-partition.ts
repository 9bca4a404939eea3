import { DataFileCorruptError } from '../../../protocol/runtime/runtime-error.ts';
import type { Journal, JournalEntry } from '../journal.ts';
import { parseJournalRecord } from '../parse-journal-record.ts';
import { generationKey, latestGeneration } from './partition-generation.ts';
import type { StateEntry } from './shared-state.ts';
import { deepFreeze, makeEntry } from './state-entry.ts';
import type { LoadedPartition } from './state-partition.ts';
import { StateRecordSchema, type StateRecord } from './state-record.ts';

/**
 * Reads a scope instance from its newest generation only (see `latestGeneration`): the
 * snapshot that opens it, then the writes after it. Versions are merged per key by number, so
 * the result does not depend on the order of the lines; each key keeps its last `historyLimit`.
 * A line that is not a shared-state record, or a later generation without its snapshot, throws
 * `DataFileCorruptError` naming the partition and seq.
 */
export async function loadStatePartition(
  journal: Journal<StateRecord>,
  scope: string,
  id: string,
  historyLimit: number,
): Promise<LoadedPartition> {
  const generation = await latestGeneration(journal, scope, id);
  const partition = generationKey(scope, id, generation);
  const lines: JournalEntry<unknown>[] = await journal.read(partition);
  const keys = new Map<string, StateEntry[]>();
  let revision = 0;
  let sinceSnapshot = 0;
  let snapshots = 0;
  for (const line of lines) {
    const record = parseJournalRecord(StateRecordSchema, line, partition, 'shared-state record');
    revision = Math.max(revision, record.version);
    if (record.type === 'snapshot') {
      snapshots += 1;
      for (const versions of record.keys) for (const fields of versions) insert(keys, makeEntry(frozen(fields)));
      continue;
    }
    sinceSnapshot += 1;
    for (const key of record.keys) {
      const { version, writtenBy, writtenAt } = record;
      insert(keys, makeEntry(frozen({ ...key, version, writtenBy, writtenAt })));
    }
  }
  if (generation > 0 && snapshots === 0) {
    throw new DataFileCorruptError(
      `journal partition ${partition}`,
      'a later generation must open with its snapshot, and this one has none',
    );
  }
  for (const versions of keys.values()) versions.splice(0, Math.max(0, versions.length - historyLimit));
  return { scope, id, generation, revision, keys, sinceSnapshot };
}

function frozen<T extends { value?: unknown }>(fields: T): T {
  deepFreeze(fields.value);
  return fields;
}

/** Puts `entry` among its key's versions in version order (a version seen twice is kept once). */
function insert(keys: Map<string, StateEntry[]>, entry: StateEntry): void {
  const versions = keys.get(entry.key);
  if (!versions) {
    keys.set(entry.key, [entry]);
    return;
  }
  let at = versions.length;
  while (at > 0 && versions[at - 1]!.version > entry.version) at -= 1;
  if (versions[at - 1]?.version !== entry.version) versions.splice(at, 0, entry);
}
