import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkDataDir, openLowdbStore } from '../../../../actors/runtime/lowdb-store.ts';
import { DataFileCorruptError } from '../../../../protocol/runtime/runtime-error.ts';

interface Doc {
  name: string;
  count: number;
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lowdb-store-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

function expectCorrupt(error: unknown, file: string, detail: RegExp): void {
  expect(error).toBeInstanceOf(DataFileCorruptError);
  expect((error as DataFileCorruptError).file).toBe(file);
  expect((error as Error).message).toMatch(detail);
}

describe('openLowdbStore', () => {
  it('round-trips put, get, update, list and delete across close and reopen', async () => {
    const store = await openLowdbStore(dir);
    const sessions = store.collection<Doc>('sessions/user-1');
    await sessions.put('a', { name: 'alpha', count: 1 });
    await sessions.put('b', { name: 'beta', count: 2 });
    await sessions.put('__proto__', { name: 'odd id', count: 0 });
    expect(await sessions.update('a', (doc) => ({ name: 'alpha', count: (doc?.count ?? 0) + 10 }))).toEqual({
      name: 'alpha',
      count: 11,
    });
    expect(await sessions.update('c', (doc) => doc ?? { name: 'new', count: 0 })).toEqual({
      name: 'new',
      count: 0,
    });
    expect(await sessions.delete('b')).toBe(true);
    expect(await sessions.delete('b')).toBe(false);
    await store.close();

    const reopened = await openLowdbStore(dir);
    const again = reopened.collection<Doc>('sessions/user-1');
    expect(await again.get('a')).toEqual({ name: 'alpha', count: 11 });
    expect(await again.get('b')).toBeUndefined();
    expect(await again.get('__proto__')).toEqual({ name: 'odd id', count: 0 });
    expect(await again.list()).toEqual([
      { name: 'alpha', count: 11 },
      { name: 'odd id', count: 0 },
      { name: 'new', count: 0 },
    ]);
    await reopened.close();
  });

  it('writes each collection to its own file, nested by slash, under NODE_ENV=test', async () => {
    const store = await openLowdbStore(dir);
    await store.collection<Doc>('users').put('u', { name: 'u', count: 1 });
    await store.collection<Doc>('sessions/User.1').put('s', { name: 's', count: 2 });
    await store.close();
    const users = JSON.parse(await readFile(join(dir, 'users.json'), 'utf8')) as unknown;
    expect(users).toEqual({ docs: { u: { name: 'u', count: 1 } } });
    const sessions = join(dir, 'sessions', '%55ser%2e1.json');
    expect(JSON.parse(await readFile(sessions, 'utf8'))).toEqual({
      docs: { s: { name: 's', count: 2 } },
    });
  });

  it('does not touch another collection file when writing one', async () => {
    const store = await openLowdbStore(dir);
    await store.collection<Doc>('a').put('x', { name: 'x', count: 0 });
    await store.collection<Doc>('b').put('y', { name: 'y', count: 0 });
    const fileB = join(dir, 'b.json');
    const before = { bytes: await readFile(fileB), mtime: (await stat(fileB)).mtimeMs };
    await new Promise((resolve) => setTimeout(resolve, 20)); // lets a write show in mtime
    const a = store.collection<Doc>('a');
    for (let i = 0; i < 5; i += 1) await a.put(`x${i}`, { name: '', count: i });
    expect(await readFile(fileB)).toEqual(before.bytes);
    expect((await stat(fileB)).mtimeMs).toBe(before.mtime);
    await store.close();
  });

  it('makes concurrent updates atomic', async () => {
    const store = await openLowdbStore(dir);
    const counters = store.collection<Doc>('counters');
    const bump = (doc: Doc | undefined): Doc => ({ name: 'c', count: (doc?.count ?? 0) + 1 });
    const results = await Promise.all(Array.from({ length: 50 }, () => counters.update('c', bump)));
    expect(results.map((doc) => doc.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    await store.close();
    const reopened = await openLowdbStore(dir);
    expect(await reopened.collection<Doc>('counters').get('c')).toEqual({ name: 'c', count: 50 });
    await reopened.close();
  });

  it('changes nothing when an update throws or a write fails', async () => {
    const store = await openLowdbStore(dir);
    const docs = store.collection<Doc>('docs');
    await docs.put('a', { name: 'a', count: 1 });
    const failing = docs.update('a', () => {
      throw new Error('no');
    });
    await expect(failing).rejects.toThrow('no');
    await expect(docs.put('b', undefined as unknown as Doc)).rejects.toMatchObject({
      code: 'validation_failed',
    });
    expect(await docs.list()).toEqual([{ name: 'a', count: 1 }]);

    // lowdb writes `.docs.json.tmp` then renames it: a folder in its place makes the write fail.
    const temp = join(dir, '.docs.json.tmp');
    await mkdir(temp);
    await expect(docs.put('b', { name: 'b', count: 2 })).rejects.toThrow(/EISDIR/);
    expect(await docs.get('b')).toBeUndefined();
    await rm(temp, { recursive: true });
    await docs.put('c', { name: 'c', count: 3 });
    await store.close();
    const reopened = await openLowdbStore(dir);
    expect(await reopened.collection<Doc>('docs').list()).toEqual([
      { name: 'a', count: 1 },
      { name: 'c', count: 3 },
    ]);
    await reopened.close();
  });

  it('returns copies, so mutating a result changes nothing stored', async () => {
    const store = await openLowdbStore(dir);
    const docs = store.collection<Doc>('docs');
    const doc = { name: 'a', count: 1 };
    await docs.put('a', doc);
    doc.count = 99;
    const read = await docs.get('a');
    if (read) read.count = 42;
    expect(await docs.get('a')).toEqual({ name: 'a', count: 1 });
    await store.close();
  });

  it('refuses an empty collection name segment', async () => {
    const store = await openLowdbStore(dir);
    expect(() => store.collection('sessions//x')).toThrow(/empty/);
    await store.close();
  });
});

describe('openLowdbStore on damaged files', () => {
  const damaged: [string, string, RegExp][] = [
    ['invalid JSON', '{"docs": {"a": ', /not valid JSON/],
    ['an empty file', '', /not valid JSON/],
    ['an array', '[]', /top level/],
    ['null', 'null', /top level/],
    ['docs that are not an object', '{"docs": []}', /top level/],
    ['an extra key', '{"docs": {}, "more": 1}', /top level/],
  ];

  it.each(damaged)('refuses %s and leaves the file unchanged', async (_, text, detail) => {
    const file = join(dir, 'sessions', 'u1.json');
    await mkdir(join(dir, 'sessions'));
    await writeFile(file, text);
    expectCorrupt(await caught(openLowdbStore(dir)), file, detail);
    expectCorrupt(await caught(checkDataDir(dir)), file, detail);
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('refuses a corrupt file when loading it lazily, and never overwrites it', async () => {
    const file = join(dir, 'docs.json');
    await writeFile(file, '{"docs": {"a": {"name": "a", "count": 1}}');
    const before = await readFile(file);
    const store = await openLowdbStore(dir, { check: false });
    const docs = store.collection<Doc>('docs');
    expectCorrupt(await caught(docs.get('a')), file, /not valid JSON/);
    expectCorrupt(await caught(docs.put('b', { name: 'b', count: 2 })), file, /not valid JSON/);
    expectCorrupt(await caught(docs.update('a', (doc) => doc as Doc)), file, /not valid JSON/);
    expect(await readFile(file)).toEqual(before);
    await store.close();
  });

  it('refuses a .json file it did not name, and ignores temp and other files', async () => {
    await writeFile(join(dir, '.docs.json.tmp'), 'half a write');
    await writeFile(join(dir, 'journal.ndjson'), 'not a store file');
    expect(await checkDataDir(dir)).toEqual([]);
    const stray = join(dir, 'Secret.json');
    await writeFile(stray, '{"docs": {}}');
    expectCorrupt(await caught(checkDataDir(dir)), stray, /not an encoded collection name/);
  });

  it('lists the files it checked', async () => {
    const store = await openLowdbStore(dir);
    await store.collection<Doc>('a/b').put('x', { name: 'x', count: 0 });
    await store.collection<Doc>('c').put('y', { name: 'y', count: 0 });
    await store.close();
    expect(await checkDataDir(dir)).toEqual([join(dir, 'a', 'b.json'), join(dir, 'c.json')]);
    expect(await checkDataDir(join(dir, 'missing'))).toEqual([]);
  });

  it('does not read folders named unchecked (caches), at any depth of the name, and still checks the rest', async () => {
    await mkdir(join(dir, 'sys', 'runs'), { recursive: true });
    await writeFile(join(dir, 'sys', 'runs', 'r1.json'), '{"docs": {');
    await writeFile(join(dir, 'sys', 'index.json'), '{"docs":{}}');
    const unchecked = (folder: string) => folder === 'sys/runs';
    expect(await checkDataDir(dir, unchecked)).toEqual([join(dir, 'sys', 'index.json')]);
    await (await openLowdbStore(dir, { unchecked })).close();
    expectCorrupt(await caught(checkDataDir(dir)), join(dir, 'sys', 'runs', 'r1.json'), /not valid JSON/);
  });
});
