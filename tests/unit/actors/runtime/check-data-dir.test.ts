import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkDataDir } from '../../../../actors/runtime/check-data-dir.ts';
import { openLowdbStore } from '../../../../actors/runtime/lowdb-store.ts';
import { DataFileCorruptError } from '../../../../protocol/runtime/runtime-error.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'check-data-dir-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function expectCorrupt(file: string, detail: RegExp): Promise<void> {
  for (const check of [() => checkDataDir(dir), () => openLowdbStore(dir, { check: true })]) {
    const error = await check().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DataFileCorruptError);
    expect((error as DataFileCorruptError).file).toBe(file);
    expect((error as Error).message).toMatch(detail);
  }
}

describe('checkDataDir (opt-in: a server does not run it)', () => {
  it('lists the document files and the old collection files it checked, in both layouts', async () => {
    const store = await openLowdbStore(dir);
    await store.collection('a/b').put('x', 1);
    await store.collection('c').put('Y', 2);
    await store.close();
    await writeFile(join(dir, 'old.json'), '{"docs": {"k": 1}}');
    expect(await checkDataDir(dir)).toEqual([
      join(dir, 'a', 'b.docs', 'x.json'),
      join(dir, 'c.docs', '%59.json'),
      join(dir, 'old.json'),
    ]);
    expect(await checkDataDir(join(dir, 'missing'))).toEqual([]);
  });

  it('refuses a damaged document file or old collection file, naming it, and leaves it unchanged', async () => {
    await mkdir(join(dir, 'sessions', 'u1.docs'), { recursive: true });
    const doc = join(dir, 'sessions', 'u1.docs', 'a.json');
    await writeFile(doc, '{"id": "a", "doc": ');
    await expectCorrupt(doc, /not valid JSON/);
    expect(await readFile(doc, 'utf8')).toBe('{"id": "a", "doc": ');
    await writeFile(doc, '{"id": "b", "doc": 1}');
    await expectCorrupt(doc, /holds document "b"/);
    await rm(doc);
    const old = join(dir, 'sessions', 'u2.json');
    await writeFile(old, '{"docs": []}');
    await expectCorrupt(old, /top level/);
  });

  it('refuses a .json file it did not name, and skips temp files, set-aside files and other files', async () => {
    await mkdir(join(dir, 'c.docs'));
    await writeFile(join(dir, '.docs.json.tmp'), 'half a write');
    await writeFile(join(dir, 'c.docs', '.a.json.tmp'), 'half a write');
    await writeFile(join(dir, 'c.docs', 'a.json.corrupt-2026-01-01T00-00-00-000Z'), 'set aside');
    await writeFile(join(dir, 'journal.ndjson'), 'not a store file');
    expect(await checkDataDir(dir)).toEqual([]);
    await writeFile(join(dir, 'c.docs', 'Secret.json'), '{"id": "Secret", "doc": 1}');
    await expectCorrupt(join(dir, 'c.docs', 'Secret.json'), /not an encoded document id/);
    await rm(join(dir, 'c.docs', 'Secret.json'));
    await mkdir(join(dir, 'Odd'));
    await writeFile(join(dir, 'Odd', 'x.json'), '{"docs": {}}');
    await expectCorrupt(join(dir, 'Odd', 'x.json'), /not an encoded collection name/);
  });
});
