import { join } from 'node:path';
import { decodeFileName, encodeFileName } from './safe-file-name.ts';

/** The suffix of a collection's folder; encoded names never hold a `.`, so it cannot be a name. */
const COLLECTION_SUFFIX = '.docs';
/** The suffix of a document file, and of a collection file in the layout before it. */
const FILE_SUFFIX = '.json';

/**
 * The folder of collection `name` under `dir`: one file per document lives in it, and nothing
 * else the store reads. Each `/`-separated segment of the name is one folder level, encoded by
 * `encodeFileName`, and the last gets `.docs`: `pipelines/Ada` is `pipelines/%41da.docs/`, and
 * `pipelines` alone would be `pipelines.docs/`, so a collection's folder can never be taken for
 * the folder of the collections under its name, nor a document for a folder. Throws
 * `ValidationError` for an empty or too long segment; the memory store checks names the same way.
 *
 * @example collectionDir('/data/store', 'nutrition/runs/r1') // '/data/store/nutrition/runs/r1.docs'
 */
export function collectionDir(dir: string, name: string): string {
  const segments = name.split('/').map((segment) => encodeFileName(segment, 'collection'));
  const last = segments.pop() as string; // split always yields at least one segment
  return join(dir, ...segments, `${last}${COLLECTION_SUFFIX}`);
}

/**
 * Where collection `name` was kept before one file per document: all its documents in one file,
 * `<segments>.json` = `{"docs": {...}}`, beside where its folder goes now.
 */
export function legacyCollectionFile(dir: string, name: string): string {
  const folder = collectionDir(dir, name);
  return `${folder.slice(0, -COLLECTION_SUFFIX.length)}${FILE_SUFFIX}`;
}

/**
 * The file of document `id` in a collection's folder: `<encoded id>.json`, holding
 * `{"id": id, "doc": document}`. Throws `ValidationError` naming `id` for an empty id or one too
 * long for a file name.
 */
export function documentFile(folder: string, id: string): string {
  return join(folder, `${encodeFileName(id, 'id')}${FILE_SUFFIX}`);
}

/**
 * The id of the document in the file named `name` (a name in a collection's folder), or
 * `undefined` for anything the store did not write there: lowdb's `.<name>.tmp` temp files, a
 * file set aside as `<name>.corrupt-<time>`, a stray file.
 */
export function documentIdOf(name: string): string | undefined {
  return name.endsWith(FILE_SUFFIX) ? decodeFileName(name.slice(0, -FILE_SUFFIX.length)) : undefined;
}

/** Whether `name` (an entry of a store folder) is a collection's folder: `<encoded segment>.docs`. */
export function isCollectionFolder(name: string): boolean {
  return name.endsWith(COLLECTION_SUFFIX) && decodeFileName(name.slice(0, -COLLECTION_SUFFIX.length)) !== undefined;
}
