import type { Journal, JournalEntry } from '../../../actors/runtime/journal.ts';
import type { Collection, Store } from '../../../actors/runtime/store.ts';

/**
 * A journal in memory with the contract of the real ones: seqs dense from 1 per partition,
 * allocated when `append` is called, and `append` resolving a tick later as if after a write.
 */
export function createFakeJournal<T>(): Journal<T> {
  const partitions = new Map<string, JournalEntry<T>[]>();
  const entriesOf = (partition: string) => {
    let entries = partitions.get(partition);
    if (entries === undefined) partitions.set(partition, (entries = []));
    return entries;
  };
  const durable = <V>(value: V) => new Promise<V>((resolve) => setTimeout(() => resolve(value), 0));
  const journal: Journal<T> = {
    append(partition, data) {
      const entries = entriesOf(partition);
      const entry = { seq: entries.length + 1, data: structuredClone(data) };
      entries.push(entry);
      return durable(structuredClone(entry));
    },
    async appendMany(partition, data) {
      return Promise.all(data.map((item) => journal.append(partition, item)));
    },
    async read(partition) {
      return structuredClone(partitions.get(partition) ?? []);
    },
    lastSeq: async (partition) => partitions.get(partition)?.length ?? 0,
    loadedSeq: (partition) => partitions.get(partition)?.length ?? 0,
    partitions: async () => [...partitions.keys()],
    async close() {},
  };
  return journal;
}

/** Counts of writes per collection name, to check what an operation rewrites. */
export type WriteLog = Map<string, number>;

/** A store in memory; documents are cloned in and out like a JSON file would. */
export function createFakeStore(writes: WriteLog = new Map()): Store {
  const collections = new Map<string, Map<string, unknown>>();
  const wrote = (name: string) => writes.set(name, (writes.get(name) ?? 0) + 1);
  return {
    collection<T>(name: string): Collection<T> {
      let docs = collections.get(name);
      if (docs === undefined) collections.set(name, (docs = new Map()));
      const map = docs as Map<string, T>;
      return {
        get: async (id) => structuredClone(map.get(id)),
        async put(id, doc) {
          wrote(name);
          map.set(id, structuredClone(doc));
        },
        async update(id, fn) {
          const next = fn(structuredClone(map.get(id)));
          wrote(name);
          map.set(id, structuredClone(next));
          return structuredClone(next);
        },
        async delete(id) {
          wrote(name);
          return map.delete(id);
        },
        list: async () => structuredClone([...map.values()]),
      };
    },
    async close() {},
  };
}

/** A clock that advances one second per reading, from a fixed start. */
export function createStepClock(start = '2025-03-01T10:00:00.000Z', stepMs = 1000): () => Date {
  let t = Date.parse(start);
  return () => {
    const now = new Date(t);
    t += stepMs;
    return now;
  };
}

/** Ids `<prefix>-1`, `<prefix>-2`, ... */
export function createSequentialIds(prefix = 'id'): () => string {
  let n = 0;
  return () => `${prefix}-${++n}`;
}
