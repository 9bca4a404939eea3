import { scanJournalFile, type ReadJournalFile } from './journal-file-scan.ts';
import type { JournalEntry } from './journal.ts';
import { setAsideTornTail } from './set-aside-torn-tail.ts';

/** Where a partition file stands when first touched: what a `JournalPartition` starts from. */
export interface LoadedPartitionFile<T> {
  /** Seq of its last complete entry (0 for a missing or empty file). */
  lastSeq: number;
  /** Bytes of its complete lines. */
  bytes: number;
  /** True when the file does not exist yet (its directory entry must be synced once made). */
  isNew: boolean;
  /** Its complete entries, when asked to collect them (a first touch that reads). */
  entries: JournalEntry<T>[];
}

/**
 * Reads and checks one partition file on its first touch (`scanJournalFile`). A missing file is
 * a new partition. A torn last line, the bytes after the last newline left by a write cut by a
 * crash and so never acknowledged, is set aside: copied to `torn/<file>.<time>.torn` beside it
 * and synced, then cut from the file, with a `warn` naming the file, the byte count and the
 * copy; appends go on from the next seq. Anything else damaged throws `DataFileCorruptError`
 * naming the file and line, and the file is left untouched.
 */
export async function loadPartitionFile<T>(
  file: string,
  options: { openRead?: ReadJournalFile; warn: (message: string) => void; collect?: boolean },
): Promise<LoadedPartitionFile<T>> {
  let scan;
  try {
    scan = await scanJournalFile<T>(file, { allowTornTail: true, open: options.openRead, collect: options.collect });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { lastSeq: 0, bytes: 0, isNew: true, entries: [] };
    throw error;
  }
  if (scan.tornTail) {
    const { line, bytes } = scan.tornTail;
    const side = await setAsideTornTail(file, scan.bytes, bytes);
    options.warn(
      `Journal file ${file}: its last line (line ${line}, ${bytes.length} bytes with no newline) was cut by a crash and never acknowledged; it was set aside in ${side} and the file now ends at its last complete line (seq ${scan.lastSeq}).`,
    );
  }
  return { lastSeq: scan.lastSeq, bytes: scan.bytes, isNew: false, entries: scan.entries };
}
