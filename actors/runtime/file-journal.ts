import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DataFileCorruptError } from '../../protocol/runtime/runtime-error.ts';
import { openAppendFile, type OpenAppendFile } from './append-file.ts';
import { scanJournalFile } from './journal-file-scan.ts';
import { JournalPartition, journalClosedError, type JournalStats } from './journal-partition.ts';
import type { Journal, JournalEntry } from './journal.ts';
import { decodeFileName, encodeFileName } from './safe-file-name.ts';
import { setAsideTornTail } from './set-aside-torn-tail.ts';

const EXTENSION = '.ndjson';
/** How many partition files are scanned at once when the journal opens. */
const SCAN_CONCURRENCY = 8;

/** Options of `openFileJournal`; the defaults suit a server. */
interface FileJournalOptions {
  /** How partition files are opened; tests pass one that counts or fails. */
  openFile?: OpenAppendFile;
  /** Handles kept open at most; the least recently written ones beyond are closed (256). */
  maxOpenFiles?: number;
  /** Told once per torn last line set aside at open (`console.warn`). */
  warn?: (message: string) => void;
}

/** A journal on disk, with counters that show how appends were batched. */
export interface FileJournal<T = unknown> extends Journal<T> {
  readonly dir: string;
  stats(): JournalStats;
}

/**
 * Opens the journal in `dir`: one NDJSON file per partition, named by `encodeFileName`. Every
 * existing file is read and checked first (as a stream). A torn last line, the bytes after the
 * last newline left by a write cut by a crash and so never acknowledged, is set aside: copied to
 * `dir/torn/<file>.<time>.torn` and synced, then cut from the file, with a `warn` naming the
 * file, the byte count and the copy; the complete lines before it stay, and appends go on from
 * the next seq. Anything else (an unparseable or misshapen line, newline-terminated ones at the
 * end included, or a gap in the seqs) throws `DataFileCorruptError` naming the file and line,
 * and the file is left untouched. Appends then go to files kept open in append mode, grouped
 * into one write and one `fdatasync` per batch, so their cost does not depend on the size of
 * the log.
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
  const openFile = options.openFile ?? openAppendFile;
  const warn = options.warn ?? console.warn;
  const partitions = new Map<string, JournalPartition<T>>();
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
  const create = (file: string, lastSeq: number, bytes: number, isNew: boolean) =>
    new JournalPartition<T>(file, { lastSeq, bytes, isNew, openFile, stats, onUse });

  const files = await existingFiles(dir);
  await forEachLimited(files, SCAN_CONCURRENCY, async ({ key, file }) => {
    const scan = await scanJournalFile(file, { allowTornTail: true });
    if (scan.tornTail) {
      const { line, bytes } = scan.tornTail;
      const side = await setAsideTornTail(file, scan.bytes, bytes);
      warn(
        `Journal file ${file}: its last line (line ${line}, ${bytes.length} bytes with no newline) was cut by a crash and never acknowledged; it was set aside in ${side} and the file now ends at its last complete line (seq ${scan.lastSeq}).`,
      );
    }
    partitions.set(key, create(file, scan.lastSeq, scan.bytes, false));
  });

  const partitionFor = (key: string): JournalPartition<T> => {
    let partition = partitions.get(key);
    if (!partition) {
      const file = join(dir, encodeFileName(key, 'partition') + EXTENSION);
      partition = create(file, 0, 0, true);
      partitions.set(key, partition);
    }
    return partition;
  };

  const appendMany = async (partition: string, data: readonly T[]): Promise<JournalEntry<T>[]> => {
    if (closed) throw journalClosedError();
    if (data.length === 0) return [];
    return partitionFor(partition).append(data);
  };

  return {
    dir,
    async append(partition: string, data: T): Promise<JournalEntry<T>> {
      const [entry] = await appendMany(partition, [data]);
      return entry as JournalEntry<T>;
    },
    appendMany,
    async read(partition: string): Promise<JournalEntry<T>[]> {
      return (await partitions.get(partition)?.read()) ?? [];
    },
    lastSeq: (partition) => partitions.get(partition)?.lastSeq ?? 0,
    prepare(partition: string): void {
      if (!closed)
        partitionFor(partition)
          .prepare()
          .catch(() => undefined);
    },
    partitions: () => [...partitions].filter(([, p]) => p.lastSeq > 0).map(([key]) => key),
    stats: () => ({ ...stats }),
    async close(): Promise<void> {
      closed = true;
      await Promise.all([...partitions.values()].map((partition) => partition.close()));
      open.clear();
    },
  };
}

/** The partition files in `dir`; a `.ndjson` file whose name we did not write is refused. */
async function existingFiles(dir: string): Promise<{ key: string; file: string }[]> {
  const found: { key: string; file: string }[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(EXTENSION)) continue;
    const file = join(dir, entry.name);
    const key = decodeFileName(entry.name.slice(0, -EXTENSION.length));
    if (key === undefined) {
      throw new DataFileCorruptError(
        file,
        'its name is not an encoded partition key, so this journal did not write it; move it away',
      );
    }
    found.push({ key, file });
  }
  return found;
}

async function forEachLimited<I>(items: readonly I[], limit: number, fn: (item: I) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++] as I);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
