import { readdir, unlink } from 'node:fs/promises';
import type { KeyedQueue } from './keyed-queue.ts';
import { mapLimited } from './map-limited.ts';
import type { Collection } from './store.ts';
import { readDocumentFile, serializeDoc, writeDocumentJson } from './store-file.ts';
import { documentFile, documentIdOf } from './store-layout.ts';
import { syncDir } from './sync-path.ts';

/** Document files read at once by `list`: overlaps the reads without opening them all. */
const PARALLEL_READS = 16;

/** What a collection gets from its store. */
export interface CollectionContext {
  /** The store's queue of writes, keyed by document file: writes of one document never overlap. */
  writes: KeyedQueue;
  /** Resolves once the collection is in the current layout (moved from the old one if need be). */
  ready(): Promise<void>;
  /** Throws `store_closed` once the store is closed. */
  assertOpen(): void;
}

/**
 * One collection: a folder with one JSON file per document (see `collectionDir`), each written
 * compact, serialized once, and read through lowdb's explicit `TextFile` adapter (never
 * `JSONFilePreset`, which silently keeps data in memory when NODE_ENV is `test`). Nothing is
 * cached: a read reads its file, a write writes only its document's file, so neither costs more
 * as the collection grows. Writes of one document run one at a time (so `update` is atomic with
 * respect to them) and each resolves once durable; a document being created reads as absent or
 * whole; a failed write leaves the old file whole. A damaged file throws
 * `DataFileCorruptError` naming it when it is read (by `get`, `list` or `update`) and is never
 * overwritten but by `put`, which replaces the document whatever it was.
 */
export class LowdbCollection<T> implements Collection<T> {
  constructor(
    readonly folder: string,
    private readonly context: CollectionContext,
  ) {}

  async get(id: string): Promise<T | undefined> {
    const file = documentFile(this.folder, id);
    await this.context.ready();
    return (await readDocumentFile<T>(file, id))?.doc;
  }

  /** Every document, ordered by id. Reads every file of the collection: for small collections. */
  async list(): Promise<T[]> {
    await this.context.ready();
    let names: string[];
    try {
      names = await readdir(this.folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const ids = names.flatMap((name) => documentIdOf(name) ?? []).sort();
    const read = await mapLimited(ids, PARALLEL_READS, (id) => readDocumentFile<T>(documentFile(this.folder, id), id));
    return read.flatMap((found) => (found ? [found.doc] : [])); // deleted since the folder was read
  }

  async put(id: string, doc: T): Promise<void> {
    const json = serializeDoc(doc);
    await this.#write(id, (file) => writeDocumentJson(file, id, json));
  }

  update(id: string, fn: (doc: T | undefined) => T): Promise<T> {
    return this.#write(id, async (file) => {
      const current = await readDocumentFile<T>(file, id);
      const json = serializeDoc(fn(current?.doc));
      await writeDocumentJson(file, id, json);
      return JSON.parse(json) as T; // a copy that nothing else holds
    });
  }

  delete(id: string): Promise<boolean> {
    return this.#write(id, async (file) => {
      try {
        await unlink(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw error;
      }
      await syncDir(this.folder);
      return true;
    });
  }

  /** Queues `task` on the document's file, after the writes to it queued before. */
  async #write<R>(id: string, task: (file: string) => Promise<R>): Promise<R> {
    const file = documentFile(this.folder, id);
    this.context.assertOpen();
    return this.context.writes.run(file, async () => {
      await this.context.ready();
      return task(file);
    });
  }
}
