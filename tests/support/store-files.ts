import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { collectionDir, documentFile, documentIdOf } from '../../actors/runtime/store-layout.ts';

/** The file of document `id` of `collection` in the lowdb store at `storeDir`, for tests that reach into it. */
export function storedFile(storeDir: string, collection: string, id: string): string {
  return documentFile(collectionDir(storeDir, collection), id);
}

/** The document as its file holds it (a test reads it behind the store's back). */
export async function readStoredDoc<T = any>(storeDir: string, collection: string, id: string): Promise<T> {
  return (JSON.parse(await readFile(storedFile(storeDir, collection, id), 'utf8')) as { doc: T }).doc;
}

/** Writes a document file as the store would (a test sets up what a crash would have left). */
export async function writeStoredDoc(storeDir: string, collection: string, id: string, doc: unknown): Promise<void> {
  const file = storedFile(storeDir, collection, id);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify({ id, doc }));
}

/** The ids of the documents in a collection's folder, sorted; none when it has no folder. */
export async function storedIds(storeDir: string, collection: string): Promise<string[]> {
  const names = await readdir(collectionDir(storeDir, collection)).catch(() => [] as string[]);
  return names.flatMap((name) => documentIdOf(name) ?? []).sort();
}
