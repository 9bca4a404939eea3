import { mkdir, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { DataFileCorruptError } from '../../protocol/runtime/runtime-error.ts';
import { LowdbCollection } from './lowdb-collection.ts';
import { decodeFileName } from './safe-file-name.ts';
import type { Collection, Store } from './store.ts';
import { collectionFile, loadStoreFile } from './store-file.ts';

/** Options of `openLowdbStore`. */
interface LowdbStoreOptions {
  /** Check every existing file before returning (true): see `checkDataDir`. */
  check?: boolean;
  /**
   * Folders of collections that are caches (a run's snapshot: the journal has the truth) and are
   * not checked at start-up, so that start-up does not read them all; a damaged one is found
   * when it is read. Given as a collection path prefix, `/`-separated (`nutrition/runs`).
   */
  unchecked?: (folder: string) => boolean;
}

/**
 * Opens the lowdb store in `dir`: one JSON file per collection (`sessions/<id>` is the file
 * `sessions/<id>.json`), so a write never rewrites another collection. By default every existing
 * file is checked first, so a server refuses to start on a corrupt one instead of failing later.
 *
 * @example
 * const store = await openLowdbStore(join(DATA_DIR, 'store'));
 * await store.collection<Session>(`sessions/${userId}`).put(session.id, session);
 */
export async function openLowdbStore(dir: string, options: LowdbStoreOptions = {}): Promise<Store> {
  await mkdir(dir, { recursive: true });
  if (options.check ?? true) await checkDataDir(dir, options.unchecked);
  const collections = new Map<string, LowdbCollection<unknown>>();
  return {
    collection<T>(name: string): Collection<T> {
      const file = collectionFile(dir, name);
      let collection = collections.get(file);
      if (!collection) {
        collection = new LowdbCollection<unknown>(file);
        collections.set(file, collection);
      }
      return collection as LowdbCollection<T>;
    },
    async close(): Promise<void> {
      await Promise.all([...collections.values()].map((collection) => collection.close()));
    },
  };
}

/**
 * Reads and checks every collection file under `dir` (recursively), for a server to call at
 * startup: throws `DataFileCorruptError` naming the first file that is not valid JSON of the
 * shape `{"docs": {...}}`, or a `.json` file whose name the store did not write. Never writes;
 * skips dot files (lowdb's temp files) and anything not ending in `.json`. Returns the files
 * it checked.
 */
export async function checkDataDir(
  dir: string,
  unchecked: (folder: string) => boolean = () => false,
): Promise<string[]> {
  const checked: string[] = [];
  const skip = (folder: string) => unchecked(relative(dir, folder).split(sep).join('/'));
  for (const file of await jsonFiles(dir, skip)) {
    const segments = relative(dir, file).slice(0, -'.json'.length).split(sep);
    if (segments.some((segment) => decodeFileName(segment) === undefined)) {
      throw new DataFileCorruptError(
        file,
        'its path is not an encoded collection name, so this store did not write it; move it away',
      );
    }
    await loadStoreFile(file);
    checked.push(file);
  }
  return checked;
}

async function jsonFiles(dir: string, skip: (folder: string) => boolean): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skip(path)) files.push(...(await jsonFiles(path, skip)));
    } else if (entry.isFile() && entry.name.endsWith('.json')) files.push(path);
  }
  return files.sort();
}
