import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';

describe('createMemoryJournal', () => {
  it('gives concurrent appends dense seqs per partition, committed in one batch', async () => {
    const journal = createMemoryJournal<number>();
    const [a, b] = await Promise.all([
      Promise.all(Array.from({ length: 100 }, (_, i) => journal.append('a', i))),
      journal.appendMany('b', [7, 8, 9]),
    ]);
    expect(a.map((e) => e.seq)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(b).toEqual([
      { seq: 1, data: 7 },
      { seq: 2, data: 8 },
      { seq: 3, data: 9 },
    ]);
    expect(journal.stats()).toEqual({ appends: 103, writes: 2, syncs: 2 });
    expect((await journal.partitions()).sort()).toEqual(['a', 'b']);
    expect(await journal.read('a')).toEqual(a);
  });

  it('counts only committed entries in lastSeq', async () => {
    const journal = createMemoryJournal<string>();
    const pending = journal.append('p', 'x');
    expect(journal.loadedSeq('p')).toBe(0);
    expect(await journal.lastSeq('p')).toBe(0);
    await pending;
    expect(await journal.lastSeq('p')).toBe(1);
    expect(journal.loadedSeq('p')).toBe(1);
  });

  it('reads back JSON copies, as a file journal would after a restart', async () => {
    const journal = createMemoryJournal<{ at: unknown; list: number[] }>();
    const data = { at: new Date(0), list: [1] };
    await journal.append('p', data);
    data.list.push(2);
    const [entry] = await journal.read('p');
    expect(entry).toEqual({ seq: 1, data: { at: '1970-01-01T00:00:00.000Z', list: [1] } });
  });

  it('sees appends made just before a read', async () => {
    const journal = createMemoryJournal<string>();
    void journal.append('p', 'x');
    expect(await journal.read('p')).toEqual([{ seq: 1, data: 'x' }]);
    expect(await journal.read('unknown')).toEqual([]);
  });

  it('refuses what a file journal refuses', async () => {
    const journal = createMemoryJournal<unknown>();
    const invalid = { code: 'validation_failed' };
    await expect(journal.append('p', undefined)).rejects.toMatchObject(invalid);
    await expect(journal.append('', 1)).rejects.toMatchObject(invalid);
    const pending = journal.append('p', 1);
    await journal.close();
    await expect(pending).resolves.toEqual({ seq: 1, data: 1 });
    await expect(journal.append('p', 2)).rejects.toMatchObject({ code: 'journal_closed' });
  });

  it('hands its committed entries to another (dump, then reopen): the same reads, and appends go on from them', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.jsonValue()), { maxLength: 30 }),
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.integer()), { maxLength: 5 }),
        async (before, after) => {
          const first = createMemoryJournal<unknown>();
          await Promise.all(before.map(([partition, data]) => first.append(partition, data)));
          const again = createMemoryJournal<unknown>(first.dump());
          expect((await again.partitions()).sort()).toEqual((await first.partitions()).sort());
          for (const partition of ['a', 'b', 'c']) {
            expect(await again.read(partition)).toEqual(await first.read(partition));
            expect(again.loadedSeq(partition)).toBe(first.loadedSeq(partition));
          }
          for (const [partition, data] of after) {
            const entry = await again.append(partition, data);
            expect(entry.seq).toBe((await first.lastSeq(partition)) + 1);
            await first.append(partition, data);
          }
          expect(again.dump()).toEqual(first.dump());
        },
      ),
      { numRuns: 200 },
    );
  });
});
