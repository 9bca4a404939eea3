import { ValidationError } from '../../protocol/runtime/runtime-error.ts';

/**
 * One append's lines, `{"seq":n,"data":<json>}\n` each from `firstSeq` (the reader's
 * `journalLinePrefix`), as UTF-8 bytes. Encoded when the append is made, under the seq it will
 * get if the batches before it are written: so what waits for the next batch is bytes outside
 * the JS heap, not one string per entry that the garbage collector copies until it is written,
 * and a batch is written as the appends' buffers one after the other.
 */
export interface EncodedLines {
  bytes: Buffer;
  firstSeq: number;
  count: number;
}

/** The first bytes reserved per entry: most routed records take a few hundred. */
const BYTES_PER_ENTRY = 512;
const SEQ_HEAD = Buffer.from('{"seq":', 'latin1');
const DATA_HEAD = Buffer.from(',"data":', 'latin1');
/** Bytes a line takes beyond its data's JSON, at most: `{"seq":` + 16 digits + `,"data":` + `}\n`. */
const LINE_OVERHEAD = SEQ_HEAD.length + 16 + DATA_HEAD.length + 2;
const CLOSE_BRACE = 0x7d;
const NEWLINE = 0x0a;

/**
 * Encodes `data` as journal lines numbered from `firstSeq`. Throws `ValidationError` for a value
 * JSON cannot hold, as `toJournalJson` does.
 */
export function encodeLines(data: readonly unknown[], firstSeq: number): EncodedLines {
  let bytes = Buffer.allocUnsafe(BYTES_PER_ENTRY * data.length);
  let offset = 0;
  let seq = firstSeq;
  for (const value of data) {
    const json = toJournalJson(value);
    // A UTF-16 code unit takes at most 3 bytes in UTF-8; count exactly only when that might not fit.
    if (offset + LINE_OVERHEAD + 3 * json.length > bytes.length) {
      const needed = offset + LINE_OVERHEAD + Buffer.byteLength(json, 'utf8');
      if (needed > bytes.length) {
        const grown = Buffer.allocUnsafe(Math.max(2 * bytes.length, needed));
        bytes.copy(grown, 0, 0, offset);
        bytes = grown;
      }
    }
    offset = put(bytes, offset, SEQ_HEAD);
    offset = putDecimal(bytes, offset, seq++);
    offset = put(bytes, offset, DATA_HEAD);
    offset += bytes.write(json, offset, 'utf8');
    bytes[offset++] = CLOSE_BRACE;
    bytes[offset++] = NEWLINE;
  }
  return { bytes: bytes.subarray(0, offset), firstSeq, count: data.length };
}

/**
 * The same lines numbered from `firstSeq` instead: an append queued behind a batch that failed
 * was numbered as if that batch had been written. Its bytes are kept (the data's JSON as it was
 * when appended) and only each line's seq is rewritten.
 */
export function renumberLines(lines: EncodedLines, firstSeq: number): EncodedLines {
  const { bytes } = lines;
  const out = Buffer.allocUnsafe(bytes.length + 16 * lines.count);
  let offset = 0;
  let seq = firstSeq;
  for (let start = 0; start < bytes.length;) {
    // JSON escapes control characters, so a line's only newline byte is its last.
    const end = bytes.indexOf(NEWLINE, start) + 1;
    let data = start + SEQ_HEAD.length;
    while (bytes[data]! >= 0x30 && bytes[data]! <= 0x39) data++;
    offset = put(out, offset, SEQ_HEAD);
    offset = putDecimal(out, offset, seq++);
    offset += bytes.copy(out, offset, data, end);
    start = end;
  }
  return { bytes: out.subarray(0, offset), firstSeq, count: lines.count };
}

/** An entry's data as JSON; refuses what JSON cannot hold, since it could not be read back. */
export function toJournalJson(value: unknown): string {
  const json = JSON.stringify(value);
  if (json === undefined) {
    throw new ValidationError('A journal entry must be a JSON value (not undefined or a function).', [
      { path: 'data', message: 'is not representable as JSON' },
    ]);
  }
  return json;
}

/** Copies a few constant bytes (a loop: cheaper than a native copy for so few). */
function put(out: Buffer, offset: number, bytes: Buffer): number {
  for (let i = 0; i < bytes.length; i++) out[offset + i] = bytes[i]!;
  return offset + bytes.length;
}

/** Writes a positive integer's decimal digits. */
function putDecimal(out: Buffer, offset: number, n: number): number {
  let digits = 1;
  for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  for (let i = offset + digits - 1, rest = n; i >= offset; i--, rest = Math.floor(rest / 10))
    out[i] = 0x30 + (rest % 10);
  return offset + digits;
}
