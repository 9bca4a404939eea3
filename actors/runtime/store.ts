/**
 * A collection of JSON documents keyed by id. `name` may contain `/` to partition data
 * (`sessions/<id>`): each collection is stored apart, so a write never rewrites another's data.
 */
export interface Collection<T> {
  get(id: string): Promise<T | undefined>;
  /** Inserts or replaces; resolves once durable. */
  put(id: string, doc: T): Promise<void>;
  /** Reads, transforms and writes one document atomically with respect to other writes here. */
  update(id: string, fn: (doc: T | undefined) => T): Promise<T>;
  delete(id: string): Promise<boolean>;
  list(): Promise<T[]>;
}

/** Where documents live: lowdb JSON files under DATA_DIR, or memory in tests. */
export interface Store {
  collection<T>(name: string): Collection<T>;
  /** Waits for pending writes. */
  close(): Promise<void>;
}
