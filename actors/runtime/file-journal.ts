import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DataFileCorruptError } from '../../protocol/runtime/runtime-error.ts';
import { openAppendFile, type OpenAppendFile } from './append-file.ts';
import type { ReadJournalFile } from './journal-file-scan.ts';
import { loadPartitionFile } from './journal-partition-load.ts';
import { JournalPartition, journalClosedError, type JournalStats } from './journal-partition.ts';
import type { Journal, JournalEntry } from './journal.ts';
import { decodeFileName, encodeFileName } from './safe-file-name.ts';

const EXTENSION = '.ndjson';
/** How many partition files are read at once on their first touch (each holds a read handle meanwhile). */
const SCAN_CONCURRENCY = 8;

/** Options of `openFileJournal`; the defaults suit a server. */
export interface FileJournalOptions {
  /** How partition files are opened for appends; tests pass one that counts or fails. */
  openFile?: OpenAppendFile;
  /** How partition files are opened to be read (first touch, `read`); tests pass one that counts. */
  openRead?: ReadJournalFile;
  /** Handles kept open at most; the least recently written ones beyond are closed (256). */
  maxOpenFiles?: number;
  /** Told once per torn last line set aside on a partition's first touch (`console.warn`). */
  warn?: (message: string) => void;
}

/** A journal on disk, with counters that show how appends were batched. */
export interface FileJournal<T = unknown> extends Journal<T> {
  readonly dir: string;
  stats(): JournalStats;
}

/**
 * Opens the journal in `dir`: one NDJSON file per partition, named by `encodeFileName`. Opening
 * reads no partition file, so it costs the same with ten runs on disk or ten thousand: a
 * partition is read and checked on its first touch (`append`, `read`, `lastSeq`, `prepare`),
 * once however many callers touch it together (`loadPartitionFile`: a torn last line is set
 * aside with a warning, anything else damaged rejects that touch, and every later one until
 * the file is repaired, with `DataFileCorruptError` naming the file and line; the other
 * partitions are not affected). Appends then go to files kept open in append mode, grouped into
 * one write and one `fdatasync` per batch, so their cost does not depend on the size of the log.
 *
 * @example
 * const journal = await openFileJournal<Envelope>('./data/journal');
 * const { seq } = await journal.append(sessionId, envelope); // durable here
 */
export async function openFileJournal<T = unknown>(
  dir: string,
  options: FileJournalOptions = {},
): Promise<FileJournal<T>> {
  await mkdir(dir, { recursive: true });
  const stats: JournalStats = { appends: 0, writes: 0, syncs: 0 };
  const maxOpenFiles = options.maxOpenFiles ?? 256;
  const { openFile = openAppendFile, openRead, warn = console.warn } = options;
  const partitions = new Map<string, JournalPartition<T>>();
  /** Partitions being read on their first touch: every toucher meanwhile waits for the same read. */
  const loading = new Map<string, Promise<JournalPartition<T>>>();
  const scans = limiter(SCAN_CONCURRENCY);
  // Insertion-ordered: the first partitions are the least recently written.
  const open = new Set<JournalPartition<unknown>>();
  let closed = false;

  const onUse = (used: JournalPartition<unknown>): void => {
    open.delete(used);
    open.add(used);
    for (const candidate of open) {
      if (open.size <= maxOpenFiles) break;
      if (candidate !== used && candidate.release()) open.delete(candidate);
    }
  };

  /** The partition of `key`, read on its first touch; `collect` is told its entries when this call reads it. */
  const load = (key: string, collect?: (entries: JournalEntry<T>[]) => void): Promise<JournalPartition<T>> => {
    const ready = partitions.get(key);
    if (ready) return Promise.resolve(ready);
    let pending = loading.get(key);
    if (!pending) {
      const file = join(dir, encodeFileName(key, 'partition') + EXTENSION);
      pending = scans(() => loadPartitionFile<T>(file, { openRead, warn, collect: collect !== undefined })).then(
        ({ lastSeq, bytes, isNew, entries }) => {
          collect?.(entries);
          const partition = new JournalPartition<T>(file, { lastSeq, bytes, isNew, openFile, openRead, stats, onUse });
          partitions.set(key, partition);
          loading.delete(key);
          return partition;
        },
        (error: unknown) => {
          loading.delete(key); // the next touch reads the file again (it may have been repaired)
          throw error;
        },
      );
      loading.set(key, pending);
    }
    return pending;
  };

  const appendMany = async (partition: string, data: readonly T[]): Promise<JournalEntry<T>[]> => {
    if (closed) throw journalClosedError();
    if (data.length === 0) return [];
    // A touched partition appends at once, so appends issued together still share one write.
    return (partitions.get(partition) ?? (await load(partition))).append(data);
  };

  return {
    dir,
    async append(partition: string, data: T): Promise<JournalEntry<T>> {
      const [entry] = await appendMany(partition, [data]);
      return entry as JournalEntry<T>;
    },
    appendMany,
    async read(partition: string): Promise<JournalEntry<T>[]> {
      // A first touch that reads keeps what it scanned: the file is read once, not twice.
      let scanned: JournalEntry<T>[] | undefined;
      const loaded = await load(partition, (entries) => (scanned = entries));
      return scanned ?? loaded.read();
    },
    lastSeq: async (partition) => (await load(partition)).lastSeq,
    loadedSeq: (partition) => partitions.get(partition)?.lastSeq,
    prepare(partition: string): void {
      if (closed) return;
      load(partition)
        .then((loaded) => loaded.prepare())
        .catch(() => undefined);
    },
    async partitions(): Promise<string[]> {
      const keys = await existingKeys(dir);
      const loaded = await Promise.all(keys.map(async (key) => [key, await load(key)] as const));
      return loaded.filter(([, partition]) => partition.lastSeq > 0).map(([key]) => key);
    },
    stats: () => ({ ...stats }),
    async close(): Promise<void> {
      closed = true;
      await Promise.allSettled(loading.values());
      await Promise.all([...partitions.values()].map((partition) => partition.close()));
      open.clear();
    },
  };
}

/** The keys of the partition files in `dir`; a `.ndjson` file whose name we did not write is refused. */
async function existingKeys(dir: string): Promise<string[]> {
  const keys: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(EXTENSION)) continue;
    const key = decodeFileName(entry.name.slice(0, -EXTENSION.length));
    if (key === undefined) {
      throw new DataFileCorruptError(
        join(dir, entry.name),
        'its name is not an encoded partition key, so this journal did not write it; move it away',
      );
    }
    keys.push(key);
  }
  return keys;
}

/** Runs at most `limit` of the tasks given to it at once, the others in the order they came. */
function limiter(limit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <R>(task: () => Promise<R>): Promise<R> => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    try {
      return await task();
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  };
}
