import fc from 'fast-check';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openAppendFile, type OpenAppendFile } from '../../../actors/runtime/append-file.ts';
import { openFileJournal } from '../../../actors/runtime/file-journal.ts';
import { TORN_FOLDER } from '../../../actors/runtime/set-aside-torn-tail.ts';

const NUM_RUNS = 200;

/**
 * Real files whose next write stops after `cutAt` (0..1) of its bytes, as a crash would cut it,
 * then fails; the write is never acknowledged and its bytes stay on disk (nothing truncates).
 */
function crashingOpen(cutAt: number) {
  const crash: { armed: boolean; written?: Buffer } = { armed: false };
  const open: OpenAppendFile = async (file) => {
    const real = await openAppendFile(file);
    return {
      async write(bytes) {
        if (!crash.armed) return real.write(bytes);
        const cut = Math.min(bytes.length, Math.floor(cutAt * (bytes.length + 1)));
        crash.written = Buffer.from(bytes.subarray(0, cut));
        await real.write(crash.written);
        throw new Error('crashed mid-write');
      },
      sync: () => real.sync(),
      truncate: () => Promise.reject(new Error('crashed')),
      close: () => real.close(),
    };
  };
  return { crash, open };
}

const dataArb = fc.jsonValue({ maxDepth: 2 });
const scenarioArb = fc.record({
  batches: fc.array(fc.array(dataArb, { minLength: 1, maxLength: 4 }), { maxLength: 3 }),
  last: fc.array(dataArb, { minLength: 1, maxLength: 5 }),
  cutAt: fc.double({ min: 0, max: 1, noNaN: true }),
});

const roundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('journal torn tail', () => {
  it('keeps exactly the complete lines of a cut write and sets aside exactly the rest', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async ({ batches, last, cutAt }) => {
        const dir = await mkdtemp(join(tmpdir(), 'journal-torn-'));
        try {
          const { crash, open } = crashingOpen(cutAt);
          const journal = await openFileJournal<unknown>(dir, { openFile: open });
          for (const batch of batches) await journal.appendMany('p', batch);
          crash.armed = true;
          await expect(journal.appendMany('p', last)).rejects.toThrow(/crashed mid-write/);
          await journal.close();

          const written = crash.written ?? Buffer.alloc(0);
          const end = written.lastIndexOf(0x0a) + 1;
          const torn = written.subarray(end);
          const kept = [...batches.flat(), ...last.slice(0, written.subarray(0, end).filter((b) => b === 0x0a).length)];
          const file = join(dir, 'p.ndjson');
          const before = await readFile(file);

          const messages: string[] = [];
          const reopened = await openFileJournal<unknown>(dir, { warn: (m) => messages.push(m) });
          const entries = await reopened.read('p');
          expect(entries).toEqual(kept.map((data, i) => ({ seq: i + 1, data: roundTrip(data) })));
          expect(await readFile(file)).toEqual(before.subarray(0, before.length - torn.length));

          const folder = join(dir, TORN_FOLDER);
          const sides = await readdir(folder).catch(() => [] as string[]);
          if (torn.length === 0) {
            expect(messages).toEqual([]);
            expect(sides).toEqual([]);
          } else {
            expect(messages).toHaveLength(1);
            expect(messages[0]).toContain(`${torn.length} bytes`);
            expect(sides).toHaveLength(1);
            expect(await readFile(join(folder, sides[0] as string))).toEqual(torn);
          }

          expect(await reopened.append('p', 'next')).toEqual({ seq: kept.length + 1, data: 'next' });
          await reopened.close();
          const again = await openFileJournal<unknown>(dir, { warn: (m) => messages.push(m) });
          expect(await again.lastSeq('p')).toBe(kept.length + 1);
          expect(messages).toHaveLength(torn.length === 0 ? 0 : 1);
          await again.close();
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
