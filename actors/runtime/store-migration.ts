import { unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { DataFileCorruptError, RuntimeError } from '../../protocol/runtime/runtime-error.ts';
import { mapLimited } from './map-limited.ts';
import { isPlainObject, readJsonFile, serializeDoc, writeDocumentData } from './store-file.ts';
import { documentFile } from './store-layout.ts';
import { makeDir, syncDir, syncFile } from './sync-path.ts';

/** Files written or synced at once while moving a collection: overlaps the disk's work. */
const PARALLEL = 32;

/**
 * Reads a collection file of the layout before one file per document (`{"docs": {...}}`):
 * its documents by id, or `undefined` when there is no such file. Invalid JSON or another shape
 * throws `DataFileCorruptError` naming the file; nothing is written.
 */
export async function readLegacyFile(file: string): Promise<Record<string, unknown> | undefined> {
  const read = await readJsonFile(file);
  if (!read) return undefined;
  const { value } = read;
  if (!isPlainObject(value) || !isPlainObject(value.docs) || Object.keys(value).length !== 1) {
    throw new DataFileCorruptError(file, 'its top level is not {"docs": {...documents by id}}');
  }
  return value.docs;
}

/**
 * Moves a collection kept in one file (`legacyFile`) into one file per document in `folder`, and
 * returns how many documents it moved (`undefined` when there was no such file: the usual case,
 * one failed `open`). Safe to cut at any point by kill -9 and to run again: every document is
 * written and synced first, then the old file is removed and its removal synced, so until that
 * last step the old file is the truth and a new run writes every document again (overwriting
 * what a cut run wrote: nothing else writes to the collection before its move is done).
 */
export async function migrateLegacyCollection(legacyFile: string, folder: string): Promise<number | undefined> {
  const docs = await readLegacyFile(legacyFile);
  if (docs === undefined) return undefined;
  const entries = Object.entries(docs).map(([id, doc]) => ({ id, doc, file: fileOf(legacyFile, folder, id) }));
  if (entries.length > 0) {
    await makeDir(folder);
    await mapLimited(entries, PARALLEL, ({ file, id, doc }) => writeDocumentData(file, id, serializeDoc(doc)));
    await mapLimited(entries, PARALLEL, ({ file }) => syncFile(file));
    await syncDir(folder);
  }
  await unlink(legacyFile);
  await syncDir(dirname(legacyFile));
  return entries.length;
}

/** The file of one legacy document; an id that cannot name a file stops the move, saying which. */
function fileOf(legacyFile: string, folder: string, id: string): string {
  try {
    return documentFile(folder, id);
  } catch (error) {
    throw new RuntimeError(
      'store_migration_failed',
      `Cannot move ${legacyFile} to one file per document: the id ${JSON.stringify(id.slice(0, 60))} ` +
        `cannot name a file (${(error as Error).message}). Nothing was changed: rename that document ` +
        'in the file, then try again.',
    );
  }
}
