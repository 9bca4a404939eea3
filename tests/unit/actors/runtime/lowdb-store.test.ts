import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLowdbStore } from '../../../../actors/runtime/lowdb-store.ts';
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

const readJson = async (file: string): Promise<unknown> => JSON.parse(await readFile(file, 'utf8'));

describe('openLowdbStore', () => {
  it('round-trips put, get, update, list and delete across close and reopen', async () => {
    const store = await openLowdbStore(dir);
    const sessions = store.collection<Doc>('sessions/user-1');
    await sessions.put('b', { name: 'beta', count: 2 });
    await sessions.put('a', { name: 'alpha', count: 1 });
    await sessions.put('__proto__', { name: 'odd id', count: 0 });
    expect(await sessions.update('a', (doc) => ({ name: 'alpha', count: (doc?.count ?? 0) + 10 }))).toEqual({
      name: 'alpha',
      count: 11,
    });
    expect(await sessions.update('c', (doc) => doc ?? { name: 'new', count: 0 })).toEqual({ name: 'new', count: 0 });
    expect(await sessions.delete('b')).toBe(true);
    expect(await sessions.delete('b')).toBe(false);
    await store.close();

    const reopened = await openLowdbStore(dir);
    const again = reopened.collection<Doc>('sessions/user-1');
    expect(await again.get('a')).toEqual({ name: 'alpha', count: 11 });
    expect(await again.get('b')).toBeUndefined();
    expect(await again.get('__proto__')).toEqual({ name: 'odd id', count: 0 });
    // Ordered by id, whatever the order of writes.
    expect(await again.list()).toEqual([
      { name: 'odd id', count: 0 },
      { name: 'alpha', count: 11 },
      { name: 'new', count: 0 },
    ]);
    expect(await reopened.collection('never-written').list()).toEqual([]);
    await reopened.close();
  });

  it('keeps one file per document in a .docs folder per collection, apart from the collections under its name', async () => {
    const store = await openLowdbStore(dir);
    await store.collection<Doc>('users').put('u', { name: 'u', count: 1 });
    await store.collection<Doc>('sessions').put('s0', { name: 's0', count: 0 });
    await store.collection<Doc>('sessions/User.1').put('S.1', { name: 's', count: 2 });
    await store.collection<Doc>('sessions/User.1/more').put('m', { name: 'm', count: 3 });
    await store.close();
    expect(await readJson(join(dir, 'users.docs', 'u.json'))).toEqual({ id: 'u', doc: { name: 'u', count: 1 } });
    expect(await readJson(join(dir, 'sessions.docs', 's0.json'))).toEqual({ id: 's0', doc: { name: 's0', count: 0 } });
    expect(await readJson(join(dir, 'sessions', '%55ser%2e1.docs', '%53%2e1.json'))).toEqual({
      id: 'S.1',
      doc: { name: 's', count: 2 },
    });
    expect(await readdir(join(dir, 'sessions'))).toEqual(['%55ser%2e1', '%55ser%2e1.docs']);
    expect(await readdir(join(dir, 'sessions', '%55ser%2e1', 'more.docs'))).toEqual(['m.json']);
    // `sessions` lists its own documents, not the collections under its name.
    const reopened = await openLowdbStore(dir);
    expect(await reopened.collection<Doc>('sessions').list()).toEqual([{ name: 's0', count: 0 }]);
    expect(await reopened.collection<Doc>('sessions/User.1').list()).toEqual([{ name: 's', count: 2 }]);
    await reopened.close();
  });

  it('takes any non-empty id whose file name fits, and names `id` when refusing one', async () => {
    const store = await openLowdbStore(dir);
    const docs = store.collection<string>('docs');
    const ids = ['__proto__', 'constructor', '..', '.', 'a/b', 'a\\b', 'Aa', 'aa', 'é', '%41', ' ', 'x'.repeat(240)];
    for (const id of ids) await docs.put(id, `doc ${id}`);
    await store.close();
    const reopened = await openLowdbStore(dir);
    const again = reopened.collection<string>('docs');
    for (const id of ids) expect(await again.get(id)).toBe(`doc ${id}`);
    expect(await again.list()).toEqual([...ids].sort().map((id) => `doc ${id}`));
    expect((await readdir(join(dir, 'docs.docs'))).length).toBe(ids.length); // no two ids share a file
    for (const bad of ['', 'x'.repeat(241)]) {
      for (const attempt of [again.get(bad), again.put(bad, 'no'), again.update(bad, () => 'no'), again.delete(bad)]) {
        const error = await caught(attempt);
        expect(error).toMatchObject({ code: 'validation_failed', issues: [{ path: 'id' }] });
      }
    }
    await reopened.close();
  });

  it('does not touch another document when writing one, nor read it', async () => {
    const store = await openLowdbStore(dir);
    const docs = store.collection<Doc>('a');
    await docs.put('x', { name: 'x', count: 0 });
    await docs.put('y', { name: 'y', count: 0 });
    const fileY = join(dir, 'a.docs', 'y.json');
    const before = { bytes: await readFile(fileY), mtime: (await stat(fileY)).mtimeMs };
    await new Promise((resolve) => setTimeout(resolve, 20)); // lets a write show in mtime
    for (let i = 0; i < 5; i += 1) await docs.update('x', (doc) => ({ name: 'x', count: (doc?.count ?? 0) + i }));
    // A damaged neighbour is not read by writes or reads of another document.
    await writeFile(join(dir, 'a.docs', 'z.json'), '{"id": ');
    await docs.put('w', { name: 'w', count: 1 });
    expect(await docs.get('x')).toEqual({ name: 'x', count: 10 });
    expect(await readFile(fileY)).toEqual(before.bytes);
    expect((await stat(fileY)).mtimeMs).toBe(before.mtime);
    await store.close();
  });

  it('makes concurrent updates atomic, and keeps the order writes were issued in', async () => {
    const store = await openLowdbStore(dir);
    const counters = store.collection<Doc>('counters');
    const bump = (doc: Doc | undefined): Doc => ({ name: 'c', count: (doc?.count ?? 0) + 1 });
    const results = await Promise.all(Array.from({ length: 50 }, () => counters.update('c', bump)));
    expect(results.map((doc) => doc.count)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    const last = await Promise.all([
      counters.put('d', { name: 'first', count: 1 }),
      counters.delete('d'),
      counters.put('d', { name: 'last', count: 3 }),
    ]);
    expect(last[1]).toBe(true);
    await store.close();
    const reopened = await openLowdbStore(dir);
    expect(await reopened.collection<Doc>('counters').get('c')).toEqual({ name: 'c', count: 50 });
    expect(await reopened.collection<Doc>('counters').get('d')).toEqual({ name: 'last', count: 3 });
    await reopened.close();
  });

  it('reads a document being created as absent or whole, never as damaged', async () => {
    // Found by the API fuzz suite: a read that missed the file, then saw it exist after the
    // create's rename, took the miss for a file holding null and answered 500.
    const store = await openLowdbStore(dir);
    const docs = store.collection<Doc>('racing');
    const failures: string[] = [];
    let absent = 0;
    const readUntilThere = async (id: string): Promise<void> => {
      // Bounded, so that a write that never lands fails the test instead of spinning.
      for (let tries = 0; tries < 10_000; tries++) {
        try {
          const doc = await docs.get(id);
          if (doc) return void expect(doc).toEqual({ name: id, count: Number(id.slice(4)) });
          absent++;
        } catch (error) {
          return void failures.push(String(error));
        }
      }
      failures.push(`${id} never appeared`);
    };
    await Promise.all(
      Array.from({ length: 200 }, async (_, n) => {
        const id = `doc-${n}`;
        await Promise.all([readUntilThere(id), readUntilThere(id), docs.put(id, { name: id, count: n })]);
      }),
    );
    expect(failures).toEqual([]);
    expect(absent).toBeGreaterThan(0);
    await store.close();
  });

  it('changes nothing when an update throws or a write fails', async () => {
    const store = await openLowdbStore(dir);
    const docs = store.collection<Doc>('docs');
    await docs.put('a', { name: 'a', count: 1 });
    await expect(
      docs.update('a', () => {
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    await expect(docs.put('b', undefined as unknown as Doc)).rejects.toMatchObject({ code: 'validation_failed' });
    expect(await docs.list()).toEqual([{ name: 'a', count: 1 }]);

    // lowdb writes `.a.json.tmp` then renames it: a folder in its place makes the write fail.
    const temp = join(dir, 'docs.docs', '.a.json.tmp');
    await mkdir(temp);
    await expect(docs.update('a', () => ({ name: 'a', count: 2 }))).rejects.toThrow(/EISDIR/);
    expect(await docs.get('a')).toEqual({ name: 'a', count: 1 });
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

  it('waits for queued writes on close, then refuses writes but still reads', async () => {
    const store = await openLowdbStore(dir);
    const docs = store.collection<Doc>('docs');
    const pending = Array.from({ length: 5 }, (_, i) => docs.put(`d${i}`, { name: 'd', count: i }));
    await store.close();
    expect((await readdir(join(dir, 'docs.docs'))).sort()).toEqual([
      'd0.json',
      'd1.json',
      'd2.json',
      'd3.json',
      'd4.json',
    ]);
    await Promise.all(pending);
    await expect(docs.put('e', { name: 'e', count: 0 })).rejects.toMatchObject({ code: 'store_closed', status: 503 });
    await expect(docs.delete('d0')).rejects.toMatchObject({ code: 'store_closed' });
    expect(await docs.get('d4')).toEqual({ name: 'd', count: 4 });
  });

  it('refuses an empty collection name segment', async () => {
    const store = await openLowdbStore(dir);
    expect(() => store.collection('sessions//x')).toThrow(/empty/);
    await store.close();
  });
});

describe('openLowdbStore on damaged files', () => {
  const damaged: [string, string, RegExp][] = [
    ['invalid JSON', '{"id": "a", "doc": ', /not valid JSON/],
    ['an empty file', '', /not valid JSON/],
    ['an array', '[]', /top level/],
    ['null', 'null', /top level/],
    ['a document without its id', '{"doc": 1}', /top level/],
    ['an extra key', '{"id": "a", "doc": 1, "more": 1}', /top level/],
    ['another document', '{"id": "b", "doc": 1}', /holds document "b", not "a"/],
  ];

  it.each(damaged)(
    'opens without reading it, reports %s naming the file when read, and never overwrites it but by put',
    async (_, text, detail) => {
      const file = join(dir, 'sessions', 'u1.docs', 'a.json');
      await mkdir(join(dir, 'sessions', 'u1.docs'), { recursive: true });
      await writeFile(file, text);
      const store = await openLowdbStore(dir);
      const docs = store.collection<number>('sessions/u1');
      expectCorrupt(await caught(docs.get('a')), file, detail);
      expectCorrupt(await caught(docs.list()), file, detail);
      expectCorrupt(await caught(docs.update('a', (doc) => doc ?? 0)), file, detail);
      expect(await readFile(file, 'utf8')).toBe(text);
      await docs.put('a', 7); // a put replaces the document, whatever it was
      expect(await docs.get('a')).toBe(7);
      await store.close();
    },
  );

  it('lists only the files it wrote (temp files, set-aside files and strays are left out), and reports a folder in the place of a document', async () => {
    const store = await openLowdbStore(dir);
    const docs = store.collection<number>('docs');
    await docs.put('a', 1);
    const folder = join(dir, 'docs.docs');
    await writeFile(join(folder, '.b.json.tmp'), 'half a write');
    await writeFile(join(folder, 'c.json.corrupt-2026-01-01T00-00-00-000Z'), '{"id"');
    await writeFile(join(folder, 'Secret.json'), '{"id": "Secret", "doc": 1}');
    expect(await docs.list()).toEqual([1]);
    await mkdir(join(folder, 'd.json'));
    expectCorrupt(await caught(docs.get('d')), join(folder, 'd.json'), /is a folder/);
    expectCorrupt(await caught(docs.list()), join(folder, 'd.json'), /is a folder/);
    await store.close();
  });
});
