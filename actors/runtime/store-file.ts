import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { Adapter } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { DataFileCorruptError, ValidationError } from '../../protocol/runtime/runtime-error.ts';
import { encodeFileName } from './safe-file-name.ts';

/** What one collection file holds: its documents by id. */
export interface StoreFileData {
  docs: Record<string, unknown>;
}

/**
 * The file of collection `name` under `dir`: each `/`-separated segment is one folder level,
 * encoded by `encodeFileName`, and the last gets `.json` (`sessions/Ab` -> `sessions/%41b.json`).
 * Throws `ValidationError` for an empty segment; memory stores check names the same way.
 */
export function collectionFile(dir: string, name: string): string {
  const segments = name.split('/').map((segment) => encodeFileName(segment, 'collection'));
  const last = segments.pop() as string; // split always yields at least one segment
  return join(dir, ...segments, `${last}.json`);
}

/**
 * Reads and checks a collection file through lowdb's adapter: documents by id, empty when the
 * file does not exist. Invalid JSON or another top-level shape than `{"docs":{...}}` throws
 * `DataFileCorruptError` naming the file; nothing is ever written here.
 */
export async function loadStoreFile<T>(
  file: string,
  adapter: Adapter<StoreFileData> = new JSONFile<StoreFileData>(file),
): Promise<Map<string, T>> {
  let value: unknown;
  try {
    value = await adapter.read();
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw new DataFileCorruptError(file, `it is not valid JSON: ${error.message}`);
  }
  // lowdb reads a missing file as null, and so is a file holding `null`.
  if (value === null && !(await exists(file))) return new Map();
  if (!isPlainObject(value) || !isPlainObject(value.docs) || Object.keys(value).length !== 1) {
    throw new DataFileCorruptError(file, 'its top level is not {"docs": {...documents by id}}');
  }
  return new Map(Object.entries(value.docs) as [string, T][]);
}

/** A copy of `doc` as it reads back from JSON; refuses what JSON cannot hold. */
export function toStoredDoc<T>(doc: T): T {
  const json = JSON.stringify(doc);
  if (json === undefined) {
    throw new ValidationError('A stored document must be a JSON value (not undefined).', [
      { path: 'doc', message: 'is not representable as JSON' },
    ]);
  }
  return JSON.parse(json) as T;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}
