/** What the host keeps of a durable run between restarts (one store file per run). */
export interface RunRecord {
  partition: string;
  owner: string;
  created_at: string;
  updated_at: string;
  /** The run actor's persisted snapshot: a cache of what the journal says; absent until first written. */
  snapshot?: unknown;
  /** The partition's last journal seq when the snapshot was taken. */
  journal_seq?: number;
  /** A finished run is not restored at start-up; its last snapshot answers for it. */
  finished?: boolean;
  /** Why the run could not be recovered after a restart, in words a user can read. */
  failure?: string;
}

/** An entry of the index of unfinished runs, the only list start-up reads. */
export interface UnfinishedRun {
  partition: string;
  owner: string;
}

/** How a run found in the index of unfinished runs comes back after a restart. */
export type Recovery =
  | { kind: 'restore'; snapshot: unknown; behind: boolean; since: number }
  | { kind: 'rebuild'; reason: string }
  | { kind: 'fail'; reason: string };

/**
 * Journal first: the journal says what happened, the snapshot is a cache. A run whose snapshot
 * is there is restored from it; when the journal went further (`behind`, past seq `since`),
 * what the user sent since is handed over again and the work after the snapshot is done again
 * under the same message ids, which the journal already holds. A run without a snapshot is
 * rebuilt from its journal; a run whose journal is empty cannot be rebuilt.
 */
export function recoveryOf(record: RunRecord | undefined, journalSeq: number): Recovery {
  if (journalSeq === 0) {
    return {
      kind: 'fail',
      reason: 'Its journal holds no envelope, so there is nothing to rebuild it from; start it again.',
    };
  }
  if (!record) return { kind: 'rebuild', reason: 'its record is missing' };
  if (record.snapshot === undefined || record.snapshot === null)
    return { kind: 'rebuild', reason: 'it has no snapshot yet' };
  const since = record.journal_seq ?? 0;
  return { kind: 'restore', snapshot: record.snapshot, behind: since < journalSeq, since };
}
