/**
 * A collection of JSON documents keyed by id. `name` may contain `/` to partition data
 * (`sessions/<id>`): each collection is stored apart, and each document too, so a write never
 * rewrites another document and costs the same however many the collection holds. Ids are any
 * non-empty string whose file name fits (`safe-file-name.ts`); another id is refused with a
 * `ValidationError` naming `id`.
 */
export interface Collection<T> {
  get(id: string): Promise<T | undefined>;
  /** Inserts or replaces; resolves once durable. */
  put(id: string, doc: T): Promise<void>;
  /** Reads, transforms and writes one document atomically with respect to other writes here. */
  update(id: string, fn: (doc: T | undefined) => T): Promise<T>;
  /** Removes the document; resolves once durable, with whether there was one. */
  delete(id: string): Promise<boolean>;
  /** Every document, ordered by id: reads them all, so keep it to collections that stay small. */
  list(): Promise<T[]>;
}

/** Where documents live: lowdb JSON files under DATA_DIR, or memory in tests. */
export interface Store {
  collection<T>(name: string): Collection<T>;
  /** Waits for pending writes. */
  close(): Promise<void>;
}
