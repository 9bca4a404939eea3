import type { Journal, JournalEntry } from '../../actors/runtime/journal.ts';
import { createMemoryJournal, type MemoryJournal } from '../../actors/runtime/memory-journal.ts';

/** One `appendMany` call waiting for the test to let it reach the "disk". */
export interface GatedAppend<T> {
  partition: string;
  data: readonly T[];
}

/**
 * A memory journal whose appends wait until the test settles them, oldest first: `commit()` stores
 * the oldest waiting call in `durable` and resolves it; `fail()` rejects it and stores nothing.
 * Given a partition, each settles the oldest waiting call of that partition instead.
 * A restarted process gets a new gated journal over the same `durable` (what never reached it is lost).
 */
export function createGatedJournal<T>(durable: MemoryJournal<T> = createMemoryJournal<T>()): Journal<T> & {
  waiting: GatedAppend<T>[];
  commit(partition?: string): Promise<void>;
  fail(message?: string, partition?: string): void;
  durable: MemoryJournal<T>;
} {
  const queue: {
    call: GatedAppend<T>;
    resolve: (entries: JournalEntry<T>[]) => void;
    reject: (error: Error) => void;
  }[] = [];
  const oldest = (partition?: string) => {
    const at = partition === undefined ? 0 : queue.findIndex((q) => q.call.partition === partition);
    const next = at < 0 ? undefined : queue.splice(at, 1)[0];
    if (!next) throw new Error(`No append is waiting${partition === undefined ? '' : ` on ${partition}`}.`);
    return next;
  };
  return {
    get waiting() {
      return queue.map((q) => q.call);
    },
    durable,
    append: (partition, data) =>
      new Promise((resolve, reject) =>
        queue.push({ call: { partition, data: [data] }, resolve: (e) => resolve(e[0]!), reject }),
      ),
    appendMany: (partition, data) =>
      new Promise((resolve, reject) => queue.push({ call: { partition, data }, resolve, reject })),
    async commit(partition) {
      const next = oldest(partition);
      next.resolve(await durable.appendMany(next.call.partition, next.call.data));
    },
    fail(message = 'disk full', partition) {
      oldest(partition).reject(new Error(message));
    },
    read: (partition) => durable.read(partition),
    lastSeq: (partition) => durable.lastSeq(partition),
    loadedSeq: (partition) => durable.loadedSeq(partition),
    partitions: () => durable.partitions(),
    close: () => durable.close(),
  };
}
