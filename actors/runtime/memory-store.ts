import { RuntimeError } from '../../protocol/runtime/runtime-error.ts';
import type { Collection, Store } from './store.ts';
import { collectionFile, toStoredDoc } from './store-file.ts';

/**
 * A store in memory for tests, with the lowdb store's semantics: names are checked the same way,
 * documents are kept as JSON copies (so reads return what a file would give back, and mutating a
 * returned document changes nothing stored), and writes after `close` are refused.
 *
 * @example
 * const store = createMemoryStore();
 */
export function createMemoryStore(): Store {
  const collections = new Map<string, Map<string, unknown>>();
  let closed = false;

  const writable = (): void => {
    if (closed) throw new RuntimeError('store_closed', 'The store is closed.', 503);
  };

  return {
    collection<T>(name: string): Collection<T> {
      collectionFile('', name); // throws for a name the lowdb store would refuse
      let docs = collections.get(name) as Map<string, T> | undefined;
      if (!docs) {
        docs = new Map<string, T>();
        collections.set(name, docs);
      }
      const store = docs;
      return {
        async get(id) {
          const doc = store.get(id);
          return doc === undefined ? undefined : structuredClone(doc);
        },
        async list() {
          return [...store.values()].map((doc) => structuredClone(doc));
        },
        async put(id, doc) {
          writable();
          store.set(id, toStoredDoc(doc));
        },
        async update(id, fn) {
          writable();
          const current = store.get(id);
          const copy = current === undefined ? undefined : structuredClone(current);
          const next = toStoredDoc(fn(copy));
          store.set(id, next);
          return structuredClone(next);
        },
        async delete(id) {
          writable();
          return store.delete(id);
        },
      };
    },
    async close() {
      closed = true;
    },
  };
}
