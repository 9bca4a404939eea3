import { dirname } from 'node:path';
import { RuntimeError } from '../../protocol/runtime/runtime-error.ts';
import type { AppendFile, OpenAppendFile } from './append-file.ts';
import { scanJournalFile, type ReadJournalFile } from './journal-file-scan.ts';
import { encodeLines, renumberLines, type EncodedLines } from './journal-lines.ts';
import { syncDir } from './sync-path.ts';
import type { JournalEntry } from './journal.ts';

/** Counters shared by every partition of a journal (the proof that appends share writes). */
export interface JournalStats {
  /** Entries acknowledged. */
  appends: number;
  /** `write` calls on partition files: one per batch. */
  writes: number;
  /** `fdatasync` calls: one per batch. */
  syncs: number;
}

/** What a partition is told by the journal that owns it. */
interface JournalPartitionOptions {
  /** Seq and byte length of the file as scanned on its first touch (0 for a new partition). */
  lastSeq: number;
  bytes: number;
  /** True when the file does not exist yet: its directory entry must be synced once. */
  isNew: boolean;
  openFile: OpenAppendFile;
  /** How the file is opened to read it back. */
  openRead?: ReadJournalFile;
  stats: JournalStats;
  /** Called each time the partition writes, so the journal can close handles used least. */
  onUse: (partition: JournalPartition<unknown>) => void;
}

interface PendingAppend<T> {
  data: readonly T[];
  /** Its lines, encoded when appended (none for a barrier). */
  lines: EncodedLines | undefined;
  resolve: (entries: JournalEntry<T>[]) => void;
  reject: (error: unknown) => void;
}

/**
 * The append side of one partition file, with group commit: every append queued while a batch
 * is being written, or in the same turn of the event loop, goes out in the next batch as one
 * `write` and one `fdatasync`; each append resolves only after its batch is on disk. Batches
 * run one at a time, so the file order is the seq order. Seqs are given when a batch is formed,
 * so a failed batch leaves no gap.
 */
export class JournalPartition<T> {
  readonly file: string;
  #lastSeq: number;
  /** The seq the next append's first entry gets if every append queued or being written before it succeeds. */
  #nextSeq: number;
  #bytes: number;
  #needsDirSync: boolean;
  #options: JournalPartitionOptions;
  #handle: AppendFile | undefined;
  /** Opening the file (and syncing a new file's directory entry), once until the handle is released. */
  #opening: Promise<AppendFile> | undefined;
  #queue: PendingAppend<T>[] = [];
  #scheduled = false;
  #writing = false;
  #closed = false;
  #failure: RuntimeError | undefined;

  constructor(file: string, options: JournalPartitionOptions) {
    this.file = file;
    this.#lastSeq = options.lastSeq;
    this.#nextSeq = options.lastSeq + 1;
    this.#bytes = options.bytes;
    this.#needsDirSync = options.isNew;
    this.#options = options;
  }

  /** The highest acknowledged (durable) seq. */
  get lastSeq(): number {
    return this.#lastSeq;
  }

  /** Queues entries for the next batch; resolves with their seqs once they are on disk. */
  append(data: readonly T[]): Promise<JournalEntry<T>[]> {
    if (this.#closed) return Promise.reject(journalClosedError());
    if (this.#failure) return Promise.reject(this.#failure);
    let lines: EncodedLines;
    try {
      lines = encodeLines(data, this.#nextSeq);
    } catch (error) {
      return Promise.reject(error);
    }
    this.#nextSeq += data.length;
    return new Promise((resolve, reject) => {
      this.#queue.push({ data, lines, resolve, reject });
      this.#schedule();
    });
  }

  /** Every acknowledged entry, read back from the file after the appends queued before it. */
  async read(): Promise<JournalEntry<T>[]> {
    await this.#barrier();
    const open = this.#options.openRead;
    const scan = await scanJournalFile<T>(this.file, { collect: true, upTo: this.#lastSeq, open });
    return scan.entries;
  }

  /**
   * Closes the file handle (in the background) if nothing is queued or being written, and says
   * whether it did. The next batch simply opens the file again in append mode.
   */
  release(): boolean {
    const handle = this.#handle;
    if (!handle || this.#writing || this.#scheduled || this.#queue.length > 0) return false;
    this.#handle = undefined;
    this.#opening = undefined;
    handle.close().catch(() => {}); // all its writes were synced; nothing is lost
    return true;
  }

  /**
   * Opens the file ahead of its first append, and makes a new file's directory entry durable,
   * so that the append only writes and syncs. An append does it itself when nobody did.
   */
  prepare(): Promise<AppendFile> {
    if (this.#failure) return Promise.reject(this.#failure);
    this.#opening ??= this.#open().catch((error: unknown) => {
      this.#opening = undefined;
      throw error;
    });
    return this.#opening;
  }

  async #open(): Promise<AppendFile> {
    const handle = await this.#options.openFile(this.file);
    if (this.#needsDirSync) {
      try {
        await syncDir(dirname(this.file));
      } catch (error) {
        // As after a failed fsync: nothing written here can be trusted to be found again.
        this.#failure = unavailable(this.file, error);
        await handle.close().catch(() => undefined);
        throw this.#failure;
      }
      this.#needsDirSync = false;
    }
    // Only a handle ready for appends is visible (and can be released).
    this.#handle = handle;
    this.#options.onUse(this as JournalPartition<unknown>);
    return handle;
  }

  /** Writes what is queued, then closes the handle; later appends are refused. */
  async close(): Promise<void> {
    await this.#barrier();
    await this.#opening?.catch(() => undefined);
    this.#closed = true;
    const handle = this.#handle;
    this.#handle = undefined;
    await handle?.close();
  }

  /** Resolves once every append queued before the call has been committed or rejected. */
  #barrier(): Promise<void> {
    if (!this.#writing && !this.#scheduled && this.#queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.#queue.push({ data: [], lines: undefined, resolve: () => resolve(), reject: () => resolve() });
    });
  }

  #schedule(): void {
    if (this.#scheduled || this.#writing) return;
    this.#scheduled = true;
    // setImmediate, not a microtask: appenders woken by the last batch queue their next append
    // in microtasks, and all of them should make this batch.
    setImmediate(() => void this.#flush());
  }

  async #flush(): Promise<void> {
    this.#scheduled = false;
    this.#writing = true;
    const batch = this.#queue.splice(0);
    try {
      await this.#commit(batch);
    } finally {
      this.#writing = false;
      // After a failed batch, the appends queued behind it were numbered too far: see `#linesOf`.
      this.#nextSeq = this.#lastSeq + 1;
      for (const item of this.#queue) this.#nextSeq += item.data.length;
      if (this.#queue.length > 0) this.#schedule();
    }
  }

  async #commit(batch: PendingAppend<T>[]): Promise<void> {
    if (this.#failure) return rejectAll(batch, this.#failure);
    const first = this.#lastSeq + 1;
    let seq = this.#lastSeq;
    for (const item of batch) seq += item.data.length;
    if (seq === this.#lastSeq) return resolveAll(batch, first);
    const bytes = this.#linesOf(batch);
    let handle: AppendFile;
    try {
      handle = await this.prepare();
      this.#options.onUse(this as JournalPartition<unknown>);
    } catch (error) {
      return rejectAll(batch, this.#failure ?? writeError(this.file, 'could not be opened', error));
    }
    try {
      this.#options.stats.writes += 1;
      await handle.write(bytes);
    } catch (error) {
      rejectAll(batch, writeError(this.file, 'could not be written', error));
      // Drop the unacknowledged partial batch so the next one starts on a clean line.
      await handle.truncate(this.#bytes).catch((cause: unknown) => {
        this.#failure = unavailable(this.file, cause);
      });
      return;
    }
    try {
      this.#options.stats.syncs += 1;
      await handle.sync();
    } catch (error) {
      // After a failed fsync the page cache cannot be trusted: stop appending to this file.
      this.#failure = unavailable(this.file, error);
      return rejectAll(batch, this.#failure);
    }
    this.#options.stats.appends += seq - this.#lastSeq;
    this.#lastSeq = seq;
    this.#bytes += bytes.length;
    resolveAll(batch, first);
  }
  /**
   * A batch's bytes: each append's lines as encoded, or renumbered if a batch before it failed
   * (its seqs were not used, so the lines queued after it were numbered too far).
   */
  #linesOf(batch: readonly PendingAppend<T>[]): Buffer {
    const parts: Buffer[] = [];
    let seq = this.#lastSeq + 1;
    for (const { lines } of batch) {
      if (!lines || lines.count === 0) continue;
      parts.push(lines.firstSeq === seq ? lines.bytes : renumberLines(lines, seq).bytes);
      seq += lines.count;
    }
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }
}

/** An entry's data as JSON (see `journal-lines.ts`, where the journal's encoding lives). */
export { toJournalJson } from './journal-lines.ts';

/** Resolves each append with its entries, numbered from `first` (built only now: nothing held across the write). */
function resolveAll<T>(batch: PendingAppend<T>[], first: number): void {
  let seq = first;
  for (const item of batch) item.resolve(item.data.map((data): JournalEntry<T> => ({ seq: seq++, data })));
}

function rejectAll<T>(batch: PendingAppend<T>[], error: unknown): void {
  for (const item of batch) item.reject(error);
}

/** The error an append gets once its journal is closed. */
export function journalClosedError(): RuntimeError {
  return new RuntimeError('journal_closed', 'The journal is closed: open it again to append.', 503);
}

function writeError(file: string, what: string, cause: unknown): RuntimeError {
  const error = new RuntimeError(
    'journal_write_failed',
    `Journal file ${file} ${what} (${describe(cause)}); the appends were not recorded.`,
    503,
  );
  error.cause = cause;
  return error;
}

function unavailable(file: string, cause: unknown): RuntimeError {
  const error = new RuntimeError(
    'journal_unavailable',
    `Journal file ${file} failed (${describe(cause)}); appends to it are refused until restart.`,
    503,
  );
  error.cause = cause;
  return error;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
