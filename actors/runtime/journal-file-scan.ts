import { createReadStream } from 'node:fs';
import { DataFileCorruptError } from '../../protocol/runtime/runtime-error.ts';
import type { JournalEntry } from './journal.ts';

/** What a scan of one partition file found. */
interface JournalFileScan<T> {
  /** Seq of the last entry read (0 for an empty file). */
  lastSeq: number;
  /** Bytes of the complete lines read. */
  bytes: number;
  /** The entries, when asked to collect them. */
  entries: JournalEntry<T>[];
  /** The bytes after the last newline, when `allowTornTail` let the scan return them. */
  tornTail?: TornTail;
}

/** The unterminated end of a file: a write cut by a crash, never acknowledged. */
interface TornTail {
  /** Its line number (one past the last complete line). */
  line: number;
  bytes: Buffer;
}

/** How far to read and what to keep. */
interface ScanOptions {
  /** Keep the parsed entries (a startup check only needs `lastSeq`). */
  collect?: boolean;
  /** Stop after this seq: lines past it may still be in flight. */
  upTo?: number;
  /**
   * Return the bytes after the last newline as `tornTail` instead of throwing, if they begin
   * like the next entry's line (only the journal's open does this, to set them aside).
   */
  allowTornTail?: boolean;
  /** How the file is opened for reading (`readJournalFile`); tests pass one that counts. */
  open?: ReadJournalFile;
}

/** Opens a partition file as a stream of chunks; a missing file fails with `ENOENT` on the first read. */
export type ReadJournalFile = (file: string) => AsyncIterable<Buffer> & { destroy(): void };

/** Reads a partition file in 1 MiB chunks. */
export const readJournalFile: ReadJournalFile = function readJournalFile(file) {
  return createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer> & { destroy(): void };
};

const NEWLINE = 0x0a;
const NUL = 0x00;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** How the journal begins the line of entry `seq`; the data's JSON and `}\n` follow. */
export function journalLinePrefix(seq: number): string {
  return `{"seq":${seq},"data":`;
}

/**
 * Reads a partition file (NDJSON, one `{"seq":n,"data":...}` per line) as a stream and checks
 * every line: valid UTF-8 and JSON, the right shape, seqs dense from 1, and a newline at the end.
 * Throws `DataFileCorruptError` naming the file and line otherwise; it never writes.
 *
 * With `allowTornTail`, bytes after the last newline are returned as `tornTail` rather than
 * refused, when they can only be a write cut by a crash: the start of the next entry's line
 * (`{"seq":<lastSeq + 1>,"data":...`, or a prefix of that), possibly followed by NUL bytes where
 * the file grew before its data reached the disk. An append is acknowledged only once its
 * newline is synced, so such bytes were never acknowledged. A newline-terminated line that does
 * not parse is never a tear: it is refused like any other corrupt line.
 */
export async function scanJournalFile<T>(file: string, options: ScanOptions = {}): Promise<JournalFileScan<T>> {
  const result: JournalFileScan<T> = { lastSeq: 0, bytes: 0, entries: [] };
  if (options.upTo === 0) return result;
  const stream = (options.open ?? readJournalFile)(file);
  let pending: Buffer[] = [];
  let line = 0;
  try {
    for await (const chunk of stream) {
      let start = 0;
      for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
        const piece = chunk.subarray(start, end);
        const bytes = pending.length > 0 ? Buffer.concat([...pending, piece]) : piece;
        pending = [];
        start = end + 1;
        line += 1;
        const entry = parseLine<T>(file, line, bytes, result.lastSeq + 1);
        result.lastSeq = entry.seq;
        result.bytes += bytes.length + 1;
        if (options.collect) result.entries.push(entry);
        if (options.upTo !== undefined && entry.seq >= options.upTo) return result;
      }
      if (start < chunk.length) pending.push(chunk.subarray(start));
    }
  } finally {
    stream.destroy();
  }
  if (pending.length > 0) {
    const tail: TornTail = { line: line + 1, bytes: Buffer.concat(pending) };
    if (!options.allowTornTail) {
      throw new DataFileCorruptError(
        file,
        `line ${tail.line} is torn: it does not end with a newline, as after an interrupted write`,
      );
    }
    const next = journalLinePrefix(result.lastSeq + 1);
    if (!beginsWith(tail.bytes, next)) {
      const detail = `line ${tail.line} has no newline and does not begin ${next}, so it is not a write cut by a crash`;
      throw new DataFileCorruptError(file, detail);
    }
    result.tornTail = tail;
  }
  return result;
}

/** Whether `bytes`, less trailing NULs, begin with `start` or are a prefix of it. */
function beginsWith(bytes: Buffer, start: string): boolean {
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === NUL) end -= 1;
  const expected = Buffer.from(start, 'utf8');
  const compared = Math.min(end, expected.length);
  return bytes.subarray(0, compared).equals(expected.subarray(0, compared));
}

function parseLine<T>(file: string, line: number, bytes: Buffer, expected: number): JournalEntry<T> {
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(bytes));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new DataFileCorruptError(file, `line ${line} is not valid JSON: ${reason}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new DataFileCorruptError(file, `line ${line} is not a {"seq","data"} object`);
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length !== 2 || !('seq' in record) || !('data' in record)) {
    throw new DataFileCorruptError(file, `line ${line} must have exactly the keys seq and data`);
  }
  if (record.seq !== expected) {
    const found = JSON.stringify(record.seq);
    const detail = `line ${line} has seq ${found} where ${expected} was expected (dense from 1)`;
    throw new DataFileCorruptError(file, detail);
  }
  return { seq: expected, data: record.data as T };
}
