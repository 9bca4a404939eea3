import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OpenAppendFile } from '../../../../actors/runtime/append-file.ts';
import { openFileJournal } from '../../../../actors/runtime/file-journal.ts';
import { instrumentedOpen } from '../../../support/instrumented-append-file.ts';

/* The file journal's handles: files opened ahead of their first append, and a bounded number kept open. */

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'file-journal-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('openFileJournal.prepare', () => {
  it('creates and opens a partition ahead of its first append, which then only writes and syncs', async () => {
    const io = instrumentedOpen();
    const journal = await openFileJournal<string>(dir, { openFile: io.open });
    journal.prepare!('p');
    await expect.poll(() => io.calls.opens).toBe(1);
    await expect.poll(async () => (await readdir(dir)).length).toBe(1);
    expect(await journal.partitions()).toEqual([]);
    expect(await journal.append('p', 'first')).toEqual({ seq: 1, data: 'first' });
    journal.prepare!('p');
    await journal.append('p', 'second');
    expect(io.calls.opens).toBe(1);
    expect(io.calls.syncs).toBe(2);
    await journal.close();
    const reopened = await openFileJournal<string>(dir);
    expect((await reopened.read('p')).map((e) => e.data)).toEqual(['first', 'second']);
    await reopened.close();
  });

  it('leaves an empty partition behind when nothing is appended, which reads as empty after a restart', async () => {
    const journal = await openFileJournal<string>(dir);
    journal.prepare!('unused');
    await journal.close();
    const reopened = await openFileJournal<string>(dir);
    expect(await reopened.read('unused')).toEqual([]);
    expect(await reopened.partitions()).toEqual([]);
    expect(await reopened.append('unused', 'x')).toEqual({ seq: 1, data: 'x' });
    await reopened.close();
  });

  it('lets the first append open the file again when preparing it failed', async () => {
    const io = instrumentedOpen();
    let failOpen = true;
    const flaky: OpenAppendFile = async (file) => {
      if (failOpen) {
        failOpen = false;
        throw new Error('EMFILE: too many open files');
      }
      return io.open(file);
    };
    const journal = await openFileJournal<string>(dir, { openFile: flaky });
    journal.prepare!('p');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await journal.append('p', 'after')).toEqual({ seq: 1, data: 'after' });
    expect(io.calls.opens).toBe(1);
    await journal.close();
  });
});

describe('openFileJournal file handles', () => {
  it('keeps at most maxOpenFiles handles and reopens a closed one in append mode', async () => {
    const io = instrumentedOpen();
    const journal = await openFileJournal<number>(dir, { openFile: io.open, maxOpenFiles: 2 });
    for (let round = 0; round < 2; round += 1) {
      for (const key of ['a', 'b', 'c', 'd']) {
        await journal.append(key, round);
        expect(io.calls.opens - io.calls.closes).toBeLessThanOrEqual(2);
      }
    }
    expect(io.calls.opens).toBe(8);
    await journal.close();
    expect(io.calls.opens).toBe(io.calls.closes);
    const reopened = await openFileJournal<number>(dir);
    for (const key of ['a', 'b', 'c', 'd']) {
      expect(await reopened.read(key)).toEqual([
        { seq: 1, data: 0 },
        { seq: 2, data: 1 },
      ]);
    }
    await reopened.close();
  });
});
