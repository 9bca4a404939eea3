import { RuntimeError } from '../../protocol/runtime/runtime-error.ts';
import type { Collection, Store } from './store.ts';
import { toStoredDoc } from './store-file.ts';
import { collectionDir, documentFile } from './store-layout.ts';

/**
 * A store in memory for tests, with the lowdb store's semantics: names and ids are checked the
 * same way, documents are kept as JSON copies (so reads return what a file would give back, and
 * mutating a returned document changes nothing stored), `list` orders them by id, and writes
 * after `close` are refused.
 *
 * @example
 * const store = createMemoryStore();
 */
export function createMemoryStore(): Store {
  const collections = new Map<string, Map<string, unknown>>();
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
    async close() {
      closed = true;
    },
  };
}
