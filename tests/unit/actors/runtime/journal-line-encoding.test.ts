import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFileJournal } from '../../../../actors/runtime/file-journal.ts';

/* A batch's lines are encoded straight into one buffer (journal-partition.ts): byte for byte what the reader expects. */

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'journal-lines-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const linesOf = (entries: { seq: number; data: unknown }[]) =>
  entries.map(({ seq, data }) => `{"seq":${seq},"data":${JSON.stringify(data)}}\n`).join('');

describe('journal line encoding', () => {
  it('writes each batch as exact UTF-8 lines, multi-byte characters and all, from the next seq', async () => {
    const journal = await openFileJournal<unknown>(dir);
    const first = ['é', { text: '😀 日本語 \u2028 "quoted" \\ back' }, 7];
    const second = [null, 'ascii', ['ß', { deep: '€' }], '😀'.repeat(40) + 'ü'.repeat(40)];
    // Appends issued together share a batch; the second batch goes on from seq 4.
    await Promise.all([journal.appendMany('p', first.slice(0, 2)), journal.append('p', first[2])]);
    await journal.appendMany('p', second);
    await journal.close();
    const expected = [...first, ...second].map((data, i) => ({ seq: i + 1, data }));
    expect(await readFile(join(dir, 'p.ndjson'), 'utf8')).toBe(linesOf(expected));
    const reopened = await openFileJournal<unknown>(dir);
    expect(await reopened.read('p')).toEqual(expected);
    await reopened.close();
  });

  it('writes and syncs nothing for a batch that only waits for the ones before it', async () => {
    const journal = await openFileJournal<string>(dir);
    const appended = journal.append('p', 'a');
    await new Promise((resolve) => setImmediate(resolve)); // the append's batch is being written
    const read = journal.read('p'); // waits in a batch of its own
    await appended;
    expect(await read).toEqual([{ seq: 1, data: 'a' }]);
    expect(journal.stats()).toEqual({ appends: 1, writes: 1, syncs: 1 });
    await journal.close();
  });

  it('round-trips any JSON value, batch after batch (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.jsonValue(), { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 4 }),
        async (batches) => {
          const sub = await mkdtemp(join(dir, 'case-'));
          const journal = await openFileJournal<unknown>(sub);
          for (const batch of batches) await journal.appendMany('p', batch);
          await journal.close();
          // What JSON keeps of each value (-0 becomes 0), numbered from 1.
          const expected = batches.flat().map((data, i) => ({ seq: i + 1, data: JSON.parse(JSON.stringify(data)) }));
          expect(await readFile(join(sub, 'p.ndjson'), 'utf8')).toBe(linesOf(expected));
          const reopened = await openFileJournal<unknown>(sub);
          expect(await reopened.read('p')).toEqual(expected);
          await reopened.close();
        },
      ),
      { numRuns: 100 },
    );
  }, 30_000);
});
