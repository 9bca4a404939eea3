import { ValidationError } from '../../protocol/runtime/runtime-error.ts';

/**
 * One append's lines, `{"seq":n,"data":<json>}\n` each from `firstSeq` (the reader's
 * `journalLinePrefix`), as one string. Built when the append is made, under the seq it will get
 * if the batches before it are written; a batch is encoded to UTF-8 once, as one buffer, when it
 * is written (one copy for the whole batch, not a pooled buffer per append).
 */
export interface EncodedLines {
  text: string;
  firstSeq: number;
  count: number;
}

const SEQ_HEAD = '{"seq":';
const DATA_HEAD = ',"data":';

/**
 * Encodes `data` as journal lines numbered from `firstSeq`. Throws `ValidationError` for a value
 * JSON cannot hold, as `toJournalJson` does.
 */
export function encodeLines(data: readonly unknown[], firstSeq: number): EncodedLines {
  let text = '';
  let seq = firstSeq;
  for (const value of data) text += SEQ_HEAD + seq++ + DATA_HEAD + toJournalJson(value) + '}\n';
  return { text, firstSeq, count: data.length };
}

/**
 * The same lines numbered from `firstSeq` instead: an append queued behind a batch that failed
 * was numbered as if that batch had been written. Its text is kept (the data's JSON as it was
 * when appended) and only each line's seq is rewritten.
 */
export function renumberLines(lines: EncodedLines, firstSeq: number): EncodedLines {
  const { text } = lines;
  let out = '';
  let seq = firstSeq;
  for (let start = 0; start < text.length;) {
    // JSON escapes control characters, so a line's only newline is its last character.
    const end = text.indexOf('\n', start) + 1;
    const data = text.indexOf(DATA_HEAD, start + SEQ_HEAD.length);
    out += SEQ_HEAD + seq++ + text.slice(data, end);
    start = end;
  }
  return { text: out, firstSeq, count: lines.count };
}

/** A batch's lines as the UTF-8 bytes written. */
export function linesBytes(texts: readonly string[]): Buffer {
  return Buffer.from(texts.length === 1 ? texts[0]! : texts.join(''), 'utf8');
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
