import { dirname } from 'node:path';
import { TextFile } from 'lowdb/node';
import { DataFileCorruptError, ValidationError } from '../../protocol/runtime/runtime-error.ts';
import { makeDir, writeFileDurably } from './sync-path.ts';

/**
 * Reads a JSON file through lowdb's `TextFile` adapter: `undefined` when the file does not exist,
 * `DataFileCorruptError` naming it when it is not valid JSON (or is a folder). Never writes. The
 * text is parsed here rather than by `JSONFile`, which reads a missing file as `null` too: telling
 * the two apart by looking again could see a file created in between, and take it for `null`.
 */
export async function readJsonFile(file: string): Promise<{ value: unknown } | undefined> {
  let text: string | null;
  try {
    text = await new TextFile(file).read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EISDIR') throw new DataFileCorruptError(file, 'it is a folder');
    throw error;
  }
  if (text === null) return undefined;
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    throw new DataFileCorruptError(file, `it is not valid JSON: ${(error as SyntaxError).message}`);
  }
}

/**
 * Reads the file of document `id`: `undefined` when there is none. A file that is not valid JSON,
 * or not `{"id": id, "doc": ...}` for this id, throws `DataFileCorruptError` naming it.
 */
export async function readDocumentFile<T>(file: string, id: string): Promise<{ doc: T } | undefined> {
  const read = await readJsonFile(file);
  if (!read) return undefined;
  const { value } = read;
  if (!isPlainObject(value) || Object.keys(value).length !== 2 || !('doc' in value) || !('id' in value)) {
    throw new DataFileCorruptError(file, 'its top level is not {"id": ..., "doc": ...}');
  }
  if (value.id !== id) {
    throw new DataFileCorruptError(file, `it holds document ${JSON.stringify(value.id)}, not ${JSON.stringify(id)}`);
  }
  return { doc: value.doc as T };
}

/**
 * Writes document `id`, given as its JSON (`serializeDoc`), to `file`: one compact
 * `{"id":...,"doc":...}` text through lowdb's `TextFile` adapter (a temp file renamed over the old
 * one, so a failed write leaves the old file whole), creating its folder when needed. The
 * document is serialized once per write. Not yet durable: `writeDocumentJson` syncs; a migration
 * syncs many files at once.
 */
export function writeDocumentData(file: string, id: string, json: string): Promise<void> {
  return inFolder(file, () => new TextFile(file).write(documentText(id, json)));
}

/**
 * Writes document `id` (its JSON) to `file` and resolves once it is durable: its temp file synced
 * before it replaces the old one, then the folder synced (`writeFileDurably`; lowdb's writer
 * renames first and never syncs, so it serves only the migration, which syncs every file after).
 */
export function writeDocumentJson(file: string, id: string, json: string): Promise<void> {
  const text = documentText(id, json);
  return inFolder(file, () => writeFileDurably(file, text));
}

/** The text of a document file: `{"id":...,"doc":...}`, compact. */
function documentText(id: string, json: string): string {
  return `{"id":${JSON.stringify(id)},"doc":${json}}`;
}

/** Runs `write`, and once more after making `file`'s folder when it was missing (a collection's first document). */
async function inFolder(file: string, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await makeDir(dirname(file));
    await write();
  }
}

/** `doc` as JSON; refuses what JSON cannot hold. */
export function serializeDoc(doc: unknown): string {
  const json = JSON.stringify(doc);
  if (json === undefined) {
    throw new ValidationError('A stored document must be a JSON value (not undefined).', [
      { path: 'doc', message: 'is not representable as JSON' },
    ]);
  }
  return json;
}

/** A copy of `doc` as it reads back from JSON; refuses what JSON cannot hold. */
export function toStoredDoc<T>(doc: T): T {
  return JSON.parse(serializeDoc(doc)) as T;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
