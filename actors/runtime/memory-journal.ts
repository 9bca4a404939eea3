import { journalClosedError, toJournalJson, type JournalStats } from './journal-partition.ts';
import type { Journal, JournalEntry } from './journal.ts';
import { encodeFileName } from './safe-file-name.ts';

/** A journal in memory, with the same counters as the file journal. */
export interface MemoryJournal<T = unknown> extends Journal<T> {
  stats(): JournalStats;
  /** Every committed entry's data, by partition (what `createMemoryJournal` takes back). */
  dump(): JournalDump<T>;
}

/** A memory journal's entries as data, by partition, in order (each entry's `seq` is its place). */
export type JournalDump<T = unknown> = Record<string, T[]>;

interface PendingAppend<T> {
  partition: string;
  data: readonly T[];
  json: string[];
  resolve: (entries: JournalEntry<T>[]) => void;
}

/**
 * A journal in memory with the file journal's semantics (tests, and a tiers task rebuilt in a
 * Restate handler from its object's state): appends made in the same tick are
 * committed together (one "write" per partition per batch, counted in `stats()`); each resolves
 * after its batch commits; `lastSeq` counts committed entries only; entries are stored as JSON,
 * so `read` returns what a file journal would return after a restart (copies, Dates as
 * strings), and data that JSON cannot hold is refused. Partition keys follow the same rules.
 *
 * `initial` (a `dump` of another) is held from the start, as if committed.
 *
 * @example
 * const journal = createMemoryJournal<Envelope>();
 * const again = createMemoryJournal<Envelope>(journal.dump());
 */
export function createMemoryJournal<T = unknown>(initial: JournalDump<T> = {}): MemoryJournal<T> {
  const logs = new Map<string, string[]>(
    Object.entries(initial).map(([partition, data]) => [partition, data.map(toJournalJson)]),
  );
  const stats: JournalStats = { appends: 0, writes: 0, syncs: 0 };
  let queue: PendingAppend<T>[] = [];
  let flushing: Promise<void> | undefined;
  let closed = false;

  const commit = (): void => {
    const batch = queue;
    queue = [];
    flushing = undefined;
    const touched = new Set<string>();
    for (const item of batch) {
      const log = logs.get(item.partition) ?? [];
      logs.set(item.partition, log);
      touched.add(item.partition);
      const entries = item.json.map((json, i): JournalEntry<T> => {
        log.push(json);
        return { seq: log.length, data: item.data[i] as T };
      });
      stats.appends += entries.length;
      item.resolve(entries);
    }
    stats.writes += touched.size;
    stats.syncs += touched.size;
  };

  const appendMany = async (partition: string, data: readonly T[]): Promise<JournalEntry<T>[]> => {
    if (closed) throw journalClosedError();
    encodeFileName(partition, 'partition'); // same key rules as on disk
    if (data.length === 0) return [];
    const json = data.map(toJournalJson);
    return new Promise((resolve) => {
      queue.push({ partition, data, json, resolve });
      flushing ??= Promise.resolve().then(commit);
    });
  };

  return {
    async append(partition: string, data: T): Promise<JournalEntry<T>> {
      const [entry] = await appendMany(partition, [data]);
      return entry as JournalEntry<T>;
    },
    appendMany,
    async read(partition: string): Promise<JournalEntry<T>[]> {
      await flushing;
      const log = logs.get(partition) ?? [];
      return log.map((json, i) => ({ seq: i + 1, data: JSON.parse(json) as T }));
    },
    lastSeq: async (partition) => logs.get(partition)?.length ?? 0,
    // Memory has nothing to load: every partition is touched from the start.
    loadedSeq: (partition) => logs.get(partition)?.length ?? 0,
    partitions: async () => [...logs].filter(([, log]) => log.length > 0).map(([key]) => key),
    stats: () => ({ ...stats }),
    dump: () =>
      Object.fromEntries(
        [...logs]
          .filter(([, log]) => log.length > 0)
          .map(([key, log]) => [key, log.map((json) => JSON.parse(json) as T)]),
      ),
    async close(): Promise<void> {
      closed = true;
      await flushing;
    },
  };
}
