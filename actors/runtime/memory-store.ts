import { RuntimeError } from '../../protocol/runtime/runtime-error.ts';
import type { Collection, Store } from './store.ts';
import { toStoredDoc } from './store-file.ts';
import { collectionDir, documentFile } from './store-layout.ts';

/** A memory store's documents, by collection name and id. */
export type StoreDump = Record<string, Record<string, unknown>>;

/** A store in memory, whose documents can be taken out (`dump`) and given to another. */
export interface MemoryStore extends Store {
  dump(): StoreDump;
}

/**
 * A store in memory (tests, and a tiers task rebuilt in a Restate handler from its object's
 * state), with the lowdb store's semantics: names and ids are checked the
 * same way, documents are kept as JSON copies (so reads return what a file would give back, and
 * mutating a returned document changes nothing stored), `list` orders them by id, and writes
 * after `close` are refused.
 *
 * `initial` (a `dump` of another) is held from the start.
 *
 * @example
 * const store = createMemoryStore();
 * const again = createMemoryStore(store.dump());
 */
export function createMemoryStore(initial: StoreDump = {}): MemoryStore {
  const collections = new Map<string, Map<string, unknown>>(
    Object.entries(initial).map(([name, docs]) => [name, new Map(Object.entries(structuredClone(docs)))]),
  );
  let closed = false;

  /** Throws for an id the lowdb store would refuse, and for a write after `close`. */
  const writable = (id: string): void => {
    documentFile('', id);
    if (closed) throw new RuntimeError('store_closed', 'The store is closed.', 503);
  };

  return {
    collection<T>(name: string): Collection<T> {
      collectionDir('', name); // throws for a name the lowdb store would refuse
      let docs = collections.get(name) as Map<string, T> | undefined;
      if (!docs) {
        docs = new Map<string, T>();
        collections.set(name, docs);
      }
      const store = docs;
      return {
        async get(id) {
          documentFile('', id);
          const doc = store.get(id);
          return doc === undefined ? undefined : structuredClone(doc);
        },
        async list() {
          const ids = [...store.keys()].sort();
          return ids.map((id) => structuredClone(store.get(id) as T));
        },
        async put(id, doc) {
          writable(id);
          store.set(id, toStoredDoc(doc));
        },
        async update(id, fn) {
          writable(id);
          const current = store.get(id);
          const copy = current === undefined ? undefined : structuredClone(current);
          const next = toStoredDoc(fn(copy));
          store.set(id, next);
          return structuredClone(next);
        },
        async delete(id) {
          writable(id);
          return store.delete(id);
        },
      };
    },
    dump: () =>
      Object.fromEntries(
        [...collections]
          .filter(([, docs]) => docs.size > 0)
          .map(([name, docs]) => [name, structuredClone(Object.fromEntries(docs))]),
      ),
    async close() {
      closed = true;
    },
  };
}
