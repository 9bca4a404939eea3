import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openFileJournal } from '../../../../actors/runtime/file-journal.ts';
import { TORN_FOLDER } from '../../../../actors/runtime/set-aside-torn-tail.ts';
import { DataFileCorruptError } from '../../../../protocol/runtime/runtime-error.ts';
import { countedRead } from '../../../support/counted-read.ts';
import { instrumentedOpen } from '../../../support/instrumented-append-file.ts';

/* Partitions are read on their first touch, not when the journal opens. */

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'file-journal-lazy-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const lines = (...data: string[]) => data.map((d, i) => `{"seq":${i + 1},"data":"${d}"}\n`).join('');

describe('openFileJournal, lazily', () => {
  it('opens no partition file when it opens, however many there are', async () => {
    for (let i = 0; i < 50; i += 1) await writeFile(join(dir, `run-${i}.ndjson`), lines('a', 'b'));
    await writeFile(join(dir, 'torn.ndjson'), `${lines('a')}{"seq":2,"da`);
    await writeFile(join(dir, 'bad.ndjson'), 'not json\n');
    const reads = countedRead();
    const appends = instrumentedOpen();
    const warn = vi.fn();
    const journal = await openFileJournal(dir, { openRead: reads.openRead, openFile: appends.open, warn });
    expect(reads.counts.opens).toBe(0);
    expect(appends.calls.opens).toBe(0);
    expect(warn).not.toHaveBeenCalled();
    expect(journal.loadedSeq('run-0')).toBeUndefined();
    expect(await journal.lastSeq('run-7')).toBe(2);
    expect(reads.counts.files).toEqual([join(dir, 'run-7.ndjson')]);
    await journal.close();
  });

  it('sets aside a torn tail on the first touch, warns once, and appends at the next seq', async () => {
    const file = join(dir, 'p.ndjson');
    await writeFile(file, `${lines('a', 'b')}{"seq":3,"da`);
    const warn = vi.fn<(message: string) => void>();
    const journal = await openFileJournal<string>(dir, { warn });
    expect(warn).not.toHaveBeenCalled();
    expect(await readFile(file, 'utf8')).toBe(`${lines('a', 'b')}{"seq":3,"da`);
    // The first touch is an append: it lands after the complete lines.
    expect(await journal.append('p', 'c')).toEqual({ seq: 3, data: 'c' });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toContain(file);
    expect(await readFile(file, 'utf8')).toBe(lines('a', 'b', 'c'));
    const [side] = await readdir(join(dir, TORN_FOLDER));
    expect(await readFile(join(dir, TORN_FOLDER, side!), 'utf8')).toBe('{"seq":3,"da');
    await journal.read('p');
    expect(warn).toHaveBeenCalledTimes(1);
    await journal.close();
  });

  it('reports a misshapen partition on each touch, leaves it untouched, and serves the others', async () => {
    const bad = join(dir, 'bad.ndjson');
    const content = `${lines('a')}{"seq":2,"oops":1}\n`;
    await writeFile(bad, content);
    await writeFile(join(dir, 'good.ndjson'), lines('x'));
    const journal = await openFileJournal<string>(dir);
    for (const touch of [() => journal.read('bad'), () => journal.append('bad', 'b'), () => journal.lastSeq('bad')]) {
      const error = await touch().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DataFileCorruptError);
      expect((error as DataFileCorruptError).file).toBe(bad);
      expect((error as Error).message).toMatch(/line 2 must have exactly the keys seq and data/);
    }
    expect(journal.loadedSeq('bad')).toBeUndefined();
    expect(await readFile(bad, 'utf8')).toBe(content);
    expect(await journal.append('good', 'y')).toEqual({ seq: 2, data: 'y' });
    // Repaired meanwhile (an operator moved the bad line away): the next touch reads it again.
    await writeFile(bad, lines('a'));
    expect(await journal.append('bad', 'b')).toEqual({ seq: 2, data: 'b' });
    await journal.close();
  });

  it('reads a partition once however many callers touch it first together', async () => {
    await writeFile(join(dir, 'p.ndjson'), `${lines('a', 'b')}{"seq":3,"d`);
    const reads = countedRead();
    const warn = vi.fn();
    const journal = await openFileJournal<string>(dir, { openRead: reads.openRead, warn });
    journal.prepare!('p');
    const touches = await Promise.all([
      journal.lastSeq('p'),
      journal.append('p', 'c'),
      journal.appendMany('p', ['d', 'e']),
      journal.lastSeq('p'),
      journal.append('p', 'f'),
    ]);
    expect(reads.counts.opens).toBe(1);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(touches[1]).toEqual({ seq: 3, data: 'c' });
    expect(touches[2]).toEqual([
      { seq: 4, data: 'd' },
      { seq: 5, data: 'e' },
    ]);
    expect(touches[4]).toEqual({ seq: 6, data: 'f' });
    expect((await journal.read('p')).map((e) => e.data)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    await journal.close();
  });

  it('reads the file once when its first touch is a read, and from disk again on later reads', async () => {
    await writeFile(join(dir, 'p.ndjson'), `${lines('a', 'b')}{"seq":3,"d`);
    const reads = countedRead();
    const journal = await openFileJournal<string>(dir, { openRead: reads.openRead, warn: () => undefined });
    expect((await journal.read('p')).map((e) => e.data)).toEqual(['a', 'b']);
    expect(reads.counts.opens).toBe(1);
    await journal.append('p', 'c');
    expect((await journal.read('p')).map((e) => e.data)).toEqual(['a', 'b', 'c']);
    expect(reads.counts.opens).toBe(2);
    await journal.close();
  });

  it('reads a bounded number of files at once when many are first touched together, and keeps to maxOpenFiles', async () => {
    for (let i = 0; i < 40; i += 1) await writeFile(join(dir, `p${i}.ndjson`), lines('a'));
    const reads = countedRead();
    const appends = instrumentedOpen();
    const journal = await openFileJournal<string>(dir, {
      openRead: reads.openRead,
      openFile: appends.open,
      maxOpenFiles: 3,
    });
    const keys = Array.from({ length: 40 }, (_, i) => `p${i}`);
    expect(await Promise.all(keys.map((key) => journal.lastSeq(key)))).toEqual(keys.map(() => 1));
    expect(reads.counts.opens).toBe(40);
    expect(reads.counts.mostOpen).toBeGreaterThan(1);
    expect(reads.counts.mostOpen).toBeLessThanOrEqual(8);
    expect(reads.counts.open).toBe(0);
    // Reading opens no append handle; appends then keep at most three open.
    expect(appends.calls.opens).toBe(0);
    for (const key of keys) {
      expect(await journal.append(key, 'b')).toEqual({ seq: 2, data: 'b' });
      expect(appends.calls.opens - appends.calls.closes).toBeLessThanOrEqual(3);
    }
    await journal.close();
    expect(appends.calls.opens).toBe(appends.calls.closes);
  });

  it('lists every partition that holds an entry only when asked, reading the directory then', async () => {
    await writeFile(join(dir, 'a.ndjson'), lines('x'));
    await writeFile(join(dir, 'empty.ndjson'), '');
    await writeFile(join(dir, 'torn.ndjson'), '{"seq":1,"da');
    const reads = countedRead();
    const journal = await openFileJournal<string>(dir, { openRead: reads.openRead, warn: () => undefined });
    await journal.append('b', 'y');
    expect((await journal.partitions()).sort()).toEqual(['a', 'b']);
    expect(reads.counts.opens).toBe(4);
    await journal.close();
  });
});
