import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFileJournal } from '../../../../actors/runtime/file-journal.ts';
import { DataFileCorruptError, RuntimeError } from '../../../../protocol/runtime/runtime-error.ts';
import { instrumentedOpen } from '../../../support/instrumented-append-file.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'file-journal-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function expectCorrupt(promise: Promise<unknown>, file: string, detail: RegExp) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DataFileCorruptError);
  expect((error as DataFileCorruptError).file).toBe(file);
  expect((error as Error).message).toMatch(detail);
}

describe('openFileJournal', () => {
  it('keeps appends intact and in order across close and reopen', async () => {
    const journal = await openFileJournal<unknown>(dir);
    const data = [{ text: 'héllo\nworld \u2028' }, 42, 'two', null, [1, { deep: true }]];
    for (const item of data) await journal.append('3f2c9a61b0e5_v2', item);
    await journal.appendMany('user/session', ['a', 'b']);
    await journal.close();

    const reopened = await openFileJournal<unknown>(dir);
    const expected = data.map((d, i) => ({ seq: i + 1, data: d }));
    expect(await reopened.read('3f2c9a61b0e5_v2')).toEqual(expected);
    expect(await reopened.read('user/session')).toEqual([
      { seq: 1, data: 'a' },
      { seq: 2, data: 'b' },
    ]);
    expect(await reopened.lastSeq('3f2c9a61b0e5_v2')).toBe(5);
    expect((await reopened.partitions()).sort()).toEqual(['3f2c9a61b0e5_v2', 'user/session']);
    expect(await reopened.append('user/session', 'c')).toEqual({ seq: 3, data: 'c' });
    await reopened.close();
  });

  it('keeps every partition in its own safe file, with no subfolder for a slash', async () => {
    const journal = await openFileJournal<string>(dir);
    await journal.append('user/session', 'x');
    await journal.append('User/session', 'y');
    await journal.append('../escape', 'z');
    await journal.close();
    const names = await readdir(dir);
    expect(names.sort()).toEqual(['%2e%2e%2fescape.ndjson', '%55ser%2fsession.ndjson', 'user%2fsession.ndjson']);
  });

  it('gives 100 concurrent appends dense unique seqs in one write and one sync', async () => {
    const io = instrumentedOpen();
    const journal = await openFileJournal<number>(dir, { openFile: io.open });
    const appends = Array.from({ length: 100 }, (_, i) => journal.append('p', i));
    const entries = await Promise.all(appends);
    expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(entries.map((e) => e.data)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(journal.stats()).toEqual({ appends: 100, writes: 1, syncs: 1 });
    expect(io.calls.writes).toBe(1);
    expect(io.calls.syncs).toBe(1);
    await journal.close();
  });

  it('batches the appends made while a write is in flight into the next write', async () => {
    const io = instrumentedOpen();
    let release!: () => void;
    io.faults.gate = new Promise((resolve) => (release = resolve));
    const journal = await openFileJournal<number>(dir, { openFile: io.open });
    const first = journal.append('p', 0);
    while (io.calls.writes === 0) await new Promise((resolve) => setImmediate(resolve));
    const later = Array.from({ length: 50 }, (_, i) => journal.append('p', i + 1));
    release();
    const entries = await Promise.all([first, ...later]);
    expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: 51 }, (_, i) => i + 1));
    expect(io.calls.writes).toBe(2);
    expect(await journal.lastSeq('p')).toBe(51);
    await journal.close();
  });

  it('counts only durable entries in lastSeq and loadedSeq', async () => {
    const io = instrumentedOpen();
    let release!: () => void;
    io.faults.gate = new Promise((resolve) => (release = resolve));
    const journal = await openFileJournal<string>(dir, { openFile: io.open });
    expect(journal.loadedSeq('p')).toBeUndefined();
    const pending = journal.append('p', 'a');
    await expect.poll(() => io.calls.writes).toBe(1);
    expect(await journal.lastSeq('p')).toBe(0);
    expect(journal.loadedSeq('p')).toBe(0);
    release();
    await pending;
    expect(await journal.lastSeq('p')).toBe(1);
    expect(journal.loadedSeq('p')).toBe(1);
    await journal.close();
  });

  it('writes what is pending on close, then refuses appends', async () => {
    const journal = await openFileJournal<string>(dir);
    const pending = journal.appendMany('p', ['a', 'b']);
    await journal.close();
    await expect(pending).resolves.toHaveLength(2);
    await expect(journal.append('p', 'c')).rejects.toMatchObject({ code: 'journal_closed' });
    const reopened = await openFileJournal<string>(dir);
    expect(await reopened.lastSeq('p')).toBe(2);
    await reopened.close();
  });

  it('refuses data that JSON cannot hold and an empty partition key', async () => {
    const journal = await openFileJournal<unknown>(dir);
    const invalid = { code: 'validation_failed' };
    await expect(journal.append('p', undefined)).rejects.toMatchObject(invalid);
    await expect(journal.append('', 1)).rejects.toMatchObject(invalid);
    expect(await journal.append('p', 1)).toEqual({ seq: 1, data: 1 });
    await journal.close();
  });

  it('does not touch another partition file when appending', async () => {
    const journal = await openFileJournal<string>(dir);
    await journal.append('a', 'first');
    await journal.append('b', 'only');
    const fileB = join(dir, 'b.ndjson');
    const before = { bytes: await readFile(fileB), mtime: (await stat(fileB)).mtimeMs };
    await new Promise((resolve) => setTimeout(resolve, 20)); // lets a write show in mtime
    await Promise.all(Array.from({ length: 20 }, (_, i) => journal.append('a', `more ${i}`)));
    expect(await readFile(fileB)).toEqual(before.bytes);
    expect((await stat(fileB)).mtimeMs).toBe(before.mtime);
    await journal.close();
  });

  it('reads an unknown partition as empty', async () => {
    const journal = await openFileJournal(dir);
    expect(await journal.read('nobody')).toEqual([]);
    expect(await journal.lastSeq('nobody')).toBe(0);
    expect(await journal.partitions()).toEqual([]);
    await journal.close();
  });
});

describe('openFileJournal on damaged files', () => {
  const good = '{"seq":1,"data":"a"}\n{"seq":2,"data":"b"}\n';

  /** Opens the journal (which reads nothing) and touches partition `p` for the first time. */
  async function firstTouch() {
    const journal = await openFileJournal(dir);
    try {
      return await journal.read('p');
    } finally {
      await journal.close();
    }
  }

  async function expectRefusedUnchanged(content: string, detail: RegExp) {
    const file = join(dir, 'p.ndjson');
    await writeFile(file, content);
    const before = await readFile(file);
    await expectCorrupt(firstTouch(), file, detail);
    expect(await readFile(file)).toEqual(before);
  }

  // A torn last line is set aside instead: see file-journal-torn.test.ts.

  it('refuses an unparseable middle line', async () => {
    const content = '{"seq":1,"data":"a"}\n{"seq":2,da\n{"seq":3,"data":"c"}\n';
    await expectRefusedUnchanged(content, /line 2 is not valid JSON/);
  });

  it('refuses seqs that are not dense from 1', async () => {
    await expectRefusedUnchanged(`${good}{"seq":4,"data":"d"}\n`, /line 3 has seq 4 where 3 was/);
    await expectRefusedUnchanged('{"seq":0,"data":"a"}\n', /line 1 has seq 0 where 1 was expected/);
  });

  it('refuses a line of the wrong shape, an empty line and invalid UTF-8', async () => {
    await expectRefusedUnchanged(`${good}[3]\n`, /line 3 is not a/);
    await expectRefusedUnchanged(`${good}{"seq":3}\n`, /line 3 must have exactly/);
    await expectRefusedUnchanged(`{"seq":1,"data":"a"}\n\n`, /line 2 is not valid JSON/);
    const file = join(dir, 'p.ndjson');
    await writeFile(file, Buffer.from([0x7b, 0xff, 0x7d, 0x0a]));
    await expectCorrupt(firstTouch(), file, /line 1 is not valid JSON/);
  });

  it('lists no partitions while a .ndjson file whose name it did not write is there', async () => {
    const file = join(dir, 'Not Ours.ndjson');
    await writeFile(file, good);
    const journal = await openFileJournal(dir);
    await expectCorrupt(journal.partitions(), file, /not an encoded partition key/);
    await journal.close();
  });
});

describe('openFileJournal when the disk fails', () => {
  it('rejects the appends of a failed write, drops its torn bytes and carries on', async () => {
    const io = instrumentedOpen();
    const journal = await openFileJournal<string>(dir, { openFile: io.open });
    await journal.append('p', 'kept');
    io.faults.write = new Error('ENOSPC: no space left on device');
    const failed = await Promise.allSettled([journal.append('p', 'lost 1'), journal.append('p', 'lost 2')]);
    for (const result of failed) {
      expect(result.status).toBe('rejected');
      const reason = (result as PromiseRejectedResult).reason as RuntimeError;
      expect(reason.code).toBe('journal_write_failed');
      expect(reason.message).toMatch(/ENOSPC/);
    }
    expect(io.calls.truncates).toBe(1);
    expect(await journal.append('p', 'after')).toEqual({ seq: 2, data: 'after' });
    await journal.close();
    const reopened = await openFileJournal<string>(dir);
    expect(await reopened.read('p')).toEqual([
      { seq: 1, data: 'kept' },
      { seq: 2, data: 'after' },
    ]);
    await reopened.close();
  });

  it('numbers the appends queued behind a failed write from the last durable seq, none lost or skipped', async () => {
    const io = instrumentedOpen();
    const journal = await openFileJournal<unknown>(dir, { openFile: io.open });
    await journal.append('p', 'kept');
    let open!: () => void;
    io.faults.gate = new Promise<void>((resolve) => (open = resolve));
    io.faults.write = new Error('ENOSPC: no space left on device');
    const lost = journal.appendMany('p', ['lost 1', 'lost 2']);
    await new Promise((resolve) => setImmediate(resolve)); // that batch is being written (held at the gate)
    // Queued behind it, these were numbered 4 and 5: they must be written as 2 and 3.
    const behind = [journal.append('p', { text: 'é 😀 \u2028' }), journal.append('p', 'next')];
    open();
    await expect(lost).rejects.toMatchObject({ code: 'journal_write_failed' });
    expect(await Promise.all(behind)).toEqual([
      { seq: 2, data: { text: 'é 😀 \u2028' } },
      { seq: 3, data: 'next' },
    ]);
    expect(await journal.append('p', 'last')).toEqual({ seq: 4, data: 'last' });
    await journal.close();
    const lines = (await readFile(join(dir, 'p.ndjson'), 'utf8')).split('\n');
    expect(lines.map((line) => line.slice(0, 9))).toEqual(['{"seq":1,', '{"seq":2,', '{"seq":3,', '{"seq":4,', '']);
    const reopened = await openFileJournal<unknown>(dir);
    expect((await reopened.read('p')).map((e) => e.data)).toEqual(['kept', { text: 'é 😀 \u2028' }, 'next', 'last']);
    await reopened.close();
  });

  it('stops appending to a partition whose sync failed, but not to the others', async () => {
    const io = instrumentedOpen();
    const journal = await openFileJournal<string>(dir, { openFile: io.open });
    await journal.append('other', 'x');
    io.faults.sync = new Error('EIO: i/o error');
    await expect(journal.append('p', 'a')).rejects.toMatchObject({ code: 'journal_unavailable' });
    await expect(journal.append('p', 'b')).rejects.toMatchObject({ code: 'journal_unavailable' });
    expect(await journal.lastSeq('p')).toBe(0);
    expect(await journal.append('other', 'y')).toEqual({ seq: 2, data: 'y' });
    await journal.close();
  });
});
