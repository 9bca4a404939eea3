import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { RuntimeError } from '../../protocol/runtime/runtime-error.ts';
import type { Collection } from './store.ts';
import { loadStoreFile, toStoredDoc, type StoreFileData } from './store-file.ts';
import { syncDir, syncFile } from './sync-path.ts';

/**
 * One collection in one JSON file, through lowdb's `Low` and the explicit `JSONFile` adapter
 * (not `JSONFilePreset`, which silently keeps data in memory when NODE_ENV is `test`). The file
 * is loaded on first use and checked (`DataFileCorruptError`, never overwritten). Writes run one
 * at a time; each builds a new map, writes it (lowdb writes a temp file and renames it), syncs it,
 * and only then becomes what reads see, so a failed write changes nothing.
 */
export class LowdbCollection<T> implements Collection<T> {
  readonly file: string;
  #db: Low<StoreFileData>;
  #docs: Promise<Map<string, T>> | undefined;
  #tail: Promise<unknown> = Promise.resolve();
  #dirReady = false;
  #closed = false;

  constructor(file: string) {
    this.file = file;
    this.#db = new Low<StoreFileData>(new JSONFile<StoreFileData>(file), { docs: {} });
  }

  async get(id: string): Promise<T | undefined> {
    const doc = (await this.#load()).get(id);
    return doc === undefined ? undefined : structuredClone(doc);
  }

  async list(): Promise<T[]> {
    return [...(await this.#load()).values()].map((doc) => structuredClone(doc));
  }

  put(id: string, doc: T): Promise<void> {
    return this.#write(async (docs) => {
      const next = new Map(docs).set(id, toStoredDoc(doc));
      await this.#commit(next);
    });
  }

  update(id: string, fn: (doc: T | undefined) => T): Promise<T> {
    return this.#write(async (docs) => {
      const current = docs.get(id);
      const stored = toStoredDoc(fn(current === undefined ? undefined : structuredClone(current)));
      await this.#commit(new Map(docs).set(id, stored));
      return structuredClone(stored);
    });
  }

  delete(id: string): Promise<boolean> {
    return this.#write(async (docs) => {
      if (!docs.has(id)) return false;
      const next = new Map(docs);
      next.delete(id);
      await this.#commit(next);
      return true;
    });
  }

  /** Waits for the writes queued so far, then refuses new ones. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#tail;
  }

  /** The committed documents, loaded and checked once (retried if loading failed). */
  #load(): Promise<Map<string, T>> {
    this.#docs ??= loadStoreFile<T>(this.file, this.#db.adapter).catch((error: unknown) => {
      this.#docs = undefined;
      throw error;
    });
    return this.#docs;
  }

  /** Runs `task` after every write queued before it, so read-modify-write is atomic here. */
  #write<R>(task: (docs: Map<string, T>) => Promise<R>): Promise<R> {
    if (this.#closed) {
      return Promise.reject(new RuntimeError('store_closed', 'The store is closed.', 503));
    }
    const run = this.#tail.then(async () => task(await this.#load()));
    this.#tail = run.catch(() => undefined);
    return run;
  }

  async #commit(next: Map<string, T>): Promise<void> {
    if (!this.#dirReady) {
      await mkdir(dirname(this.file), { recursive: true });
      this.#dirReady = true;
    }
    // fromEntries defines own properties, so an id like `__proto__` stays a plain key.
    this.#db.data = { docs: Object.fromEntries(next) };
    await this.#db.write();
    // lowdb renames a temp file over the old one without syncing: make the new one durable.
    await syncFile(this.file);
    await syncDir(dirname(this.file));
    this.#docs = Promise.resolve(next);
  }
}
