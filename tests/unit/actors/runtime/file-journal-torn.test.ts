import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openFileJournal } from '../../../../actors/runtime/file-journal.ts';
import { TORN_FOLDER } from '../../../../actors/runtime/set-aside-torn-tail.ts';
import { DataFileCorruptError } from '../../../../protocol/runtime/runtime-error.ts';

/* A partition's first touch: a torn last line is set aside, anything else corrupt is refused. */

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'file-journal-torn-'));
  file = join(dir, 'p.ndjson');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const good = '{"seq":1,"data":"a"}\n{"seq":2,"data":"b"}\n';

/** Opens the journal with a `warn` that records, and says what it kept and set aside. */
async function reopen() {
  const warn = vi.fn<(message: string) => void>();
  const journal = await openFileJournal<unknown>(dir, { warn });
  const entries = await journal.read('p');
  return { journal, warn, entries, sideFiles: await sideFiles() };
}

async function sideFiles(): Promise<{ name: string; bytes: Buffer }[]> {
  const folder = join(dir, TORN_FOLDER);
  const names = await readdir(folder).catch(() => [] as string[]);
  const files = names.sort().map(async (name) => ({ name, bytes: await readFile(join(folder, name)) }));
  return Promise.all(files);
}

async function expectRefusedUnchanged(content: string | Buffer, detail: RegExp) {
  await writeFile(file, content);
  const before = await readFile(file);
  const journal = await openFileJournal(dir, { warn: () => undefined });
  const error = await journal.read('p').then(
    () => undefined,
    (e: unknown) => e,
  );
  await journal.close();
  expect(error).toBeInstanceOf(DataFileCorruptError);
  expect((error as DataFileCorruptError).file).toBe(file);
  expect((error as Error).message).toMatch(detail);
  expect(await readFile(file)).toEqual(before);
  expect(await readdir(dir)).toEqual(['p.ndjson']);
}

describe('openFileJournal, first touch of a partition with a torn last line', () => {
  it('sets aside a partial last line and keeps the lines before it', async () => {
    await writeFile(file, `${good}{"seq":3,"da`);
    const { journal, entries, sideFiles } = await reopen();
    expect(entries).toEqual([
      { seq: 1, data: 'a' },
      { seq: 2, data: 'b' },
    ]);
    expect(await journal.lastSeq('p')).toBe(2);
    expect(await readFile(file, 'utf8')).toBe(good);
    expect(sideFiles).toHaveLength(1);
    expect(sideFiles[0]?.name).toMatch(/^p\.ndjson\.\d{4}-\d\d-\d\dT[\d-]+Z\.torn$/);
    expect(sideFiles[0]?.bytes.toString('utf8')).toBe('{"seq":3,"da');
    await journal.close();
  });

  it('keeps the complete lines of a cut batch and sets aside only its partial end', async () => {
    const first = await openFileJournal<string>(dir);
    await first.appendMany('p', ['a', 'b']);
    await first.close();
    await appendFile(file, '{"seq":3,"data":"c"}\n{"seq":4,"data":"d"}\n{"seq":5,"data":"e');
    const { journal, entries, sideFiles } = await reopen();
    expect(entries.map((e) => e.data)).toEqual(['a', 'b', 'c', 'd']);
    expect(await journal.lastSeq('p')).toBe(4);
    expect(sideFiles.map((f) => f.bytes.toString('utf8'))).toEqual(['{"seq":5,"data":"e']);
    await journal.close();
  });

  it('empties a file that is only a partial line, and appends from seq 1', async () => {
    await writeFile(file, '{"seq":1,"data":{"x"');
    const { journal, entries, sideFiles } = await reopen();
    expect(entries).toEqual([]);
    expect(await journal.partitions()).toEqual([]);
    expect((await readFile(file)).length).toBe(0);
    expect(sideFiles.map((f) => f.bytes.toString('utf8'))).toEqual(['{"seq":1,"data":{"x"']);
    expect(await journal.append('p', 'first')).toEqual({ seq: 1, data: 'first' });
    await journal.close();
  });

  it('copies the torn bytes exactly, even a character cut in the middle', async () => {
    const torn = Buffer.concat([Buffer.from('{"seq":3,"data":"caf'), Buffer.from('é').subarray(0, 1)]);
    await writeFile(file, Buffer.concat([Buffer.from(good), torn]));
    const { journal, sideFiles } = await reopen();
    expect(sideFiles.map((f) => f.bytes)).toEqual([torn]);
    expect(await readFile(file, 'utf8')).toBe(good);
    await journal.close();
  });

  it('warns once, naming the file, the byte count and where the bytes went', async () => {
    await writeFile(file, `${good}{"seq":3,"da`);
    await writeFile(join(dir, 'q.ndjson'), good);
    const { journal, warn, sideFiles } = await reopen();
    expect(warn).toHaveBeenCalledTimes(1);
    const message = warn.mock.calls[0]?.[0] ?? '';
    expect(message).toContain(file);
    expect(message).toContain('12 bytes');
    expect(message).toContain(join(dir, TORN_FOLDER, sideFiles[0]?.name ?? '?'));
    expect(await readFile(join(dir, 'q.ndjson'), 'utf8')).toBe(good);
    await journal.close();
  });

  it('warns through console.warn when no warn is given', async () => {
    const spy = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      await writeFile(file, `${good}{"seq":3,"da`);
      const journal = await openFileJournal(dir);
      expect(spy).not.toHaveBeenCalled();
      await journal.lastSeq('p');
      expect(spy).toHaveBeenCalledTimes(1);
      expect(String(spy.mock.calls[0]?.[0])).toContain(file);
      await journal.close();
    } finally {
      spy.mockRestore();
    }
  });

  it('appends from the next seq after setting aside, and opens cleanly the next time', async () => {
    await writeFile(file, `${good}{"seq":3,"data":"lost`);
    const first = await reopen();
    expect(await first.journal.append('p', 'c')).toEqual({ seq: 3, data: 'c' });
    await first.journal.close();
    expect(await readFile(file, 'utf8')).toBe(`${good}{"seq":3,"data":"c"}\n`);

    const second = await reopen();
    expect(second.warn).not.toHaveBeenCalled();
    expect(second.entries.map((e) => e.data)).toEqual(['a', 'b', 'c']);
    expect(second.sideFiles).toHaveLength(1);
    expect(await second.journal.append('p', 'd')).toEqual({ seq: 4, data: 'd' });
    await second.journal.close();
  });

  it('keeps each tear in its own side file', async () => {
    await writeFile(file, `${good}{"seq":3,"da`);
    await (await reopen()).journal.close();
    await appendFile(file, '{"seq":3,"data"');
    const { journal, warn, sideFiles } = await reopen();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(sideFiles.map((f) => f.bytes.toString('utf8')).sort()).toEqual(['{"seq":3,"da', '{"seq":3,"data"']);
    await journal.close();
  });

  it('sets aside a complete entry that lacks its newline: it was never acknowledged', async () => {
    await writeFile(file, `${good}{"seq":3,"data":"c"}`);
    const { journal, entries, sideFiles } = await reopen();
    expect(entries.map((e) => e.data)).toEqual(['a', 'b']);
    expect(sideFiles.map((f) => f.bytes.toString('utf8'))).toEqual(['{"seq":3,"data":"c"}']);
    await journal.close();
  });

  it('sets aside NUL bytes left where the file grew before its data reached the disk', async () => {
    const torn = Buffer.concat([Buffer.from('{"seq":3,"da'), Buffer.alloc(40)]);
    await writeFile(file, Buffer.concat([Buffer.from(good), torn]));
    const { journal, sideFiles } = await reopen();
    expect(sideFiles.map((f) => f.bytes)).toEqual([torn]);
    expect(await readFile(file, 'utf8')).toBe(good);
    await journal.close();
  });
});

describe('openFileJournal, first touch of a partition corrupt before its last line', () => {
  it('refuses a corrupt middle line even when the last line is torn, and changes nothing', async () => {
    const content = '{"seq":1,"data":"a"}\n{"seq":2,da\n{"seq":3,"data":"c"}\n{"seq":4,"da';
    await expectRefusedUnchanged(content, /line 2 is not valid JSON/);
  });

  it('refuses a seq gap before a torn last line', async () => {
    await expectRefusedUnchanged(`${good}{"seq":4,"data":"d"}\n{"seq":5,"d`, /line 3 has seq 4/);
  });

  it('refuses a newline-terminated last line that does not parse: a cut cannot make one', async () => {
    await expectRefusedUnchanged(`${good}{"seq":3,"da\n`, /line 3 is not valid JSON/);
  });

  it('refuses an unterminated last line that does not begin the next entry', async () => {
    const notATear = /line 3 has no newline and does not begin \{"seq":3,"data":, so it is not a write cut/;
    await expectRefusedUnchanged(`${good}{"seq":7,"data":"g"}`, notATear);
    await expectRefusedUnchanged(`${good}{"seq":30,"d`, notATear);
    await expectRefusedUnchanged(`${good}garbage`, notATear);
    await expectRefusedUnchanged(Buffer.from(`${good}\0\0{"seq":3,"da`), notATear);
  });
});
