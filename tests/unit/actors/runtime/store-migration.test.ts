import { access, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLowdbStore } from '../../../../actors/runtime/lowdb-store.ts';
import { migrateLegacyCollection } from '../../../../actors/runtime/store-migration.ts';
import { DataFileCorruptError } from '../../../../protocol/runtime/runtime-error.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'store-migration-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const gone = (file: string) =>
  access(file).then(
    () => false,
    () => true,
  );

/** A collection file as stores wrote them before one file per document. */
async function legacy(path: string[], docs: Record<string, unknown>): Promise<string> {
  const file = join(dir, ...path);
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, JSON.stringify({ docs }));
  return file;
}

// Parsed, so that `__proto__` is an own key as in a file, not the object's prototype.
const DOCS = JSON.parse('{"b": {"n": 2}, "a": {"n": 1}, "__proto__": {"n": 0}, "Odd.Id": null, "1": [1]}');

describe('moving a collection from the layout before one file per document', () => {
  it('happens on first use, then the old file is gone and every document reads back', async () => {
    const file = await legacy(['pipelines', '%41da.json'], DOCS);
    await legacy(['pipelines', 'bob.json'], { x: { n: 9 } });
    const store = await openLowdbStore(dir);
    expect(await gone(file)).toBe(false); // opening reads and moves nothing
    const ada = store.collection<unknown>('pipelines/Ada');
    expect(await ada.get('__proto__')).toEqual({ n: 0 });
    expect(await gone(file)).toBe(true);
    expect(await ada.get('Odd.Id')).toBeNull();
    expect(await ada.list()).toEqual([[1], null, { n: 0 }, { n: 1 }, { n: 2 }]); // by id: 1, Odd.Id, __proto__, a, b
    expect((await readdir(join(dir, 'pipelines', '%41da.docs'))).sort()).toEqual(
      ['1.json', '__proto__.json', '%4fdd%2e%49d.json', 'a.json', 'b.json'].sort(),
    );
    // Another collection moves only when it is used, by a write as well as a read.
    expect(await gone(join(dir, 'pipelines', 'bob.json'))).toBe(false);
    await store.collection<unknown>('pipelines/bob').put('y', { n: 10 });
    expect(await store.collection<unknown>('pipelines/bob').list()).toEqual([{ n: 9 }, { n: 10 }]);
    await store.close();
  });

  it('moves a collection once when many calls use it at once, in the order they were made', async () => {
    await legacy(['counters.json'], { c: { n: 0 } });
    const store = await openLowdbStore(dir);
    const counters = store.collection<{ n: number }>('counters');
    const results = await Promise.all([
      counters.get('c'),
      ...Array.from({ length: 10 }, () => counters.update('c', (doc) => ({ n: (doc?.n ?? 0) + 1 }))),
      counters.list(),
    ]);
    expect(results[0]).toEqual({ n: 0 });
    expect(results.slice(1, 11).map((doc) => (doc as { n: number }).n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    await store.close();
    const reopened = await openLowdbStore(dir);
    expect(await reopened.collection('counters').get('c')).toEqual({ n: 10 });
    await reopened.close();
  });

  it('finishes a move that a crash cut short, without losing or duplicating a document', async () => {
    // As a kill -9 leaves it: some documents written (one torn mid-write, one stale, a temp
    // file), the old file still there. The old file is the truth until the move removes it.
    const file = await legacy(['sessions', 'u1.json'], { a: { n: 1 }, b: { n: 2 }, c: { n: 3 } });
    const folder = join(dir, 'sessions', 'u1.docs');
    await mkdir(folder);
    await writeFile(join(folder, 'a.json'), JSON.stringify({ id: 'a', doc: { n: 1 } }));
    await writeFile(join(folder, 'b.json'), '{"id": "b", "do');
    await writeFile(join(folder, '.c.json.tmp'), '{"id": "c"');
    const store = await openLowdbStore(dir);
    const docs = store.collection<{ n: number }>('sessions/u1');
    expect(await docs.list()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(await gone(file)).toBe(true);
    await store.close();

    // Cut after every document was written but before the old file went: the same again.
    await legacy(['sessions', 'u1.json'], { a: { n: 1 }, b: { n: 2 }, c: { n: 3 } });
    expect(await migrateLegacyCollection(file, folder)).toBe(3);
    expect(await migrateLegacyCollection(file, folder)).toBeUndefined(); // nothing left to do
    const reopened = await openLowdbStore(dir);
    expect(await reopened.collection('sessions/u1').list()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    await reopened.close();
  });

  it('refuses a damaged old file, naming it, changing nothing, and tries again on the next use', async () => {
    const text = '{"docs": {"a": {"n": 1}';
    const file = join(dir, 'docs.json');
    await writeFile(file, text);
    const store = await openLowdbStore(dir);
    const docs = store.collection<{ n: number }>('docs');
    for (const attempt of [docs.get('a'), docs.list(), docs.put('b', { n: 2 }), docs.delete('a')]) {
      const error = await attempt.then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(DataFileCorruptError);
      expect((error as DataFileCorruptError).file).toBe(file);
    }
    expect(await readFile(file, 'utf8')).toBe(text);
    expect(await gone(join(dir, 'docs.docs'))).toBe(true);
    await writeFile(file, JSON.stringify({ docs: { a: { n: 1 } } })); // repaired by hand
    expect(await docs.get('a')).toEqual({ n: 1 });
    await store.close();
  });

  it('refuses an old id that cannot name a file, saying which, before writing anything', async () => {
    const file = await legacy(['docs.json'], { ok: 1, '': 2 });
    const store = await openLowdbStore(dir);
    await expect(store.collection('docs').list()).rejects.toMatchObject({
      code: 'store_migration_failed',
      message: expect.stringMatching(/the id "" cannot name a file .* rename that document/),
    });
    expect(await gone(file)).toBe(false);
    expect(await gone(join(dir, 'docs.docs'))).toBe(true);
    await store.close();
  });

  it('moves an empty collection by removing its file', async () => {
    const file = await legacy(['empty.json'], {});
    const store = await openLowdbStore(dir);
    expect(await store.collection('empty').list()).toEqual([]);
    expect(await gone(file)).toBe(true);
    await store.close();
  });
});
