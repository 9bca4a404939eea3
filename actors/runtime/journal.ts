/** One acknowledged journal entry: its sequence number within its partition, and its data. */
export interface JournalEntry<T> {
  seq: number;
  data: T;
}

/**
 * An append-only log partitioned by key (a run, a session). Sequence numbers start at 1 and are
 * dense per partition. `append` resolves only once the entry is durable (on disk for a file
 * journal); appends issued together share one write. Opening a journal reads no partition: each
 * is read (and checked) when first touched, so that opening costs the same whatever the history.
 */
export interface Journal<T = unknown> {
  append(partition: string, data: T): Promise<JournalEntry<T>>;
  /** Appends several entries to one partition in order, in one write. */
  appendMany(partition: string, data: readonly T[]): Promise<JournalEntry<T>[]>;
  /** Every entry of a partition in sequence order (empty for an unknown partition). */
  read(partition: string): Promise<JournalEntry<T>[]>;
  /** The highest sequence number of a partition, 0 if none (a file journal reads it on first touch). */
  lastSeq(partition: string): Promise<number>;
  /**
   * The highest sequence number of a partition already touched (read, appended to, prepared),
   * without touching the disk; undefined for one not touched yet. Never more than `lastSeq`.
   */
  loadedSeq(partition: string): number | undefined;
  /**
   * Every partition that holds an entry. A file journal lists and reads its whole directory for
   * this: it is for tools and tests, never for start-up or a request.
   */
  partitions(): Promise<string[]>;
  /** Waits for pending writes and releases file handles. */
  close(): Promise<void>;
  /**
   * A hint that `partition` is about to get its first appends: a file journal creates and opens
   * its file now, so that the first append only writes and syncs. Failures surface on append.
   */
  prepare?(partition: string): void;
}
