import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { DataFileCorruptError } from '../../protocol/runtime/runtime-error.ts';
import { decodeFileName } from './safe-file-name.ts';
import { readDocumentFile } from './store-file.ts';
import { readLegacyFile } from './store-migration.ts';
import { documentIdOf, isCollectionFolder } from './store-layout.ts';

/**
 * Reads and checks every file of the lowdb store under `dir` (recursively), for a person or a
 * test to run (`npm run check-store`, or `openLowdbStore(dir, { check: true })`); a server does
 * not, so that its start-up does not grow with history. Throws `DataFileCorruptError` naming the
 * first file that is not valid JSON of its shape (a document file, or a collection file of the
 * layout before one file per document, not moved yet), or a `.json` file whose name the store did
 * not write. Never writes; skips dot files (lowdb's temp files) and files not ending in `.json`
 * (a damaged file set aside as `<file>.corrupt-<time>`). Returns the files it checked.
 */
export async function checkDataDir(dir: string): Promise<string[]> {
  const checked: string[] = [];
  const notOurs = (file: string, what: string) =>
    new DataFileCorruptError(file, `its path is not an encoded ${what}, so this store did not write it; move it away`);
  for (const { path, name, folder } of await entries(dir, true)) {
    if (folder) {
      if (!isCollectionFolder(name)) continue; // a folder of names, or one the store does not read
      for (const file of await entries(path)) {
        if (file.folder || !file.name.endsWith('.json')) continue;
        const id = documentIdOf(file.name);
        if (id === undefined) throw notOurs(file.path, 'document id');
        await readDocumentFile(file.path, id);
        checked.push(file.path);
      }
    } else if (name.endsWith('.json')) {
      const segments = relative(dir, path).slice(0, -'.json'.length).split(sep);
      if (segments.some((segment) => decodeFileName(segment) === undefined)) throw notOurs(path, 'collection name');
      await readLegacyFile(path);
      checked.push(path);
    }
  }
  return checked.sort();
}

/** The entries of `dir`, dot files left out; `deep`: and of its folders but collections' folders. */
async function entries(dir: string, deep = false): Promise<{ path: string; name: string; folder: boolean }[]> {
  let found;
  try {
    found = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const all: { path: string; name: string; folder: boolean }[] = [];
  for (const entry of found.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    all.push({ path, name: entry.name, folder: entry.isDirectory() });
    if (deep && entry.isDirectory() && !isCollectionFolder(entry.name)) all.push(...(await entries(path, true)));
  }
  return all;
}
