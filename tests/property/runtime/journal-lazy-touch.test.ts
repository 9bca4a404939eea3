import fc from 'fast-check';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openFileJournal } from '../../../actors/runtime/file-journal.ts';
import { TORN_FOLDER } from '../../../actors/runtime/set-aside-torn-tail.ts';

const NUM_RUNS = 100;
const KEYS = ['a', 'b', 'c', 'd'];

/** A partition file left by an earlier process: complete entries, maybe a torn last line. */
const fileArb = fc.record({ entries: fc.array(fc.string({ maxLength: 6 }), { maxLength: 4 }), torn: fc.boolean() });
const opArb = fc.record({
  key: fc.integer({ min: 0, max: KEYS.length - 1 }),
  kind: fc.constantFrom('append', 'appendMany', 'read', 'lastSeq', 'prepare'),
  data: fc.array(fc.string({ maxLength: 6 }), { minLength: 1, maxLength: 3 }),
});

const lineOf = (seq: number, data: string) => `${JSON.stringify({ seq, data })}\n`;

describe('a file journal touched concurrently after a restart', () => {
  it('reads each partition once, sets each torn tail aside once, and orders appends as issued', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fileArb, { minLength: KEYS.length, maxLength: KEYS.length }),
        fc.array(opArb, { minLength: 1, maxLength: 25 }),
        async (files, ops) => {
          const dir = await mkdtemp(join(tmpdir(), 'journal-lazy-'));
          try {
            const contents = files.map(
              ({ entries, torn }) =>
                entries.map((data, i) => lineOf(i + 1, data)).join('') +
                (torn ? `{"seq":${entries.length + 1},"da` : ''),
            );
            await Promise.all(contents.map((text, i) => writeFile(join(dir, `${KEYS[i]}.ndjson`), text)));
            const warnings: string[] = [];
            const journal = await openFileJournal<string>(dir, { warn: (m) => warnings.push(m) });

            // Everything is issued at once: first touches race each other and the appends.
            const model = files.map(({ entries }) => [...entries]);
            const expectedAcks: (number[] | undefined)[] = [];
            const pending = ops.map((op) => {
              const key = KEYS[op.key]!;
              const log = model[op.key]!;
              const atLeast = files[op.key]!.entries.length;
              switch (op.kind) {
                case 'append':
                  log.push(op.data[0]!);
                  expectedAcks.push([log.length]);
                  return journal.append(key, op.data[0]!).then((e) => [e.seq]);
                case 'appendMany':
                  log.push(...op.data);
                  expectedAcks.push(op.data.map((_, i) => log.length - op.data.length + i + 1));
                  return journal.appendMany(key, op.data).then((es) => es.map((e) => e.seq));
                case 'read':
                  expectedAcks.push(undefined);
                  return journal.read(key).then((es) => {
                    // Some prefix of what is there by the end, never less than was on disk.
                    expect(es.length).toBeGreaterThanOrEqual(atLeast);
                    expect(es.map((e) => e.seq)).toEqual(es.map((_, i) => i + 1));
                    return undefined;
                  });
                case 'lastSeq':
                  expectedAcks.push(undefined);
                  return journal.lastSeq(key).then((seq) => {
                    expect(seq).toBeGreaterThanOrEqual(atLeast);
                    return undefined;
                  });
                default:
                  journal.prepare!(key);
                  expectedAcks.push(undefined);
                  return Promise.resolve(undefined);
              }
            });
            expect(await Promise.all(pending)).toEqual(expectedAcks);

            // A partition nobody touched was not read: even a torn tail is still there.
            const touched = new Set(ops.map((op) => op.key));
            for (const [i, key] of KEYS.entries()) {
              if (!touched.has(i)) expect(await readFile(join(dir, `${key}.ndjson`), 'utf8')).toBe(contents[i]);
            }
            for (const [i, key] of KEYS.entries()) {
              const entries = await journal.read(key);
              expect(entries.map((e) => e.data)).toEqual(model[i]);
            }
            await journal.close();
            // Each torn tail was set aside once (a second reader would have found the file cut under it).
            const tornKeys = files.flatMap(({ torn }, i) => (torn ? [KEYS[i]] : []));
            expect(warnings).toHaveLength(tornKeys.length);
            const sides = await readdir(join(dir, TORN_FOLDER)).catch(() => [] as string[]);
            expect(sides.map((name) => name.split('.')[0]).sort()).toEqual(tornKeys.sort());
          } finally {
            await rm(dir, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });
});
