import { TaskBook, type TaskQueueRecord } from './task-book.ts';
import type { Journal } from './journal.ts';
import { parseJournalRecord } from './parse-journal-record.ts';
import { TaskGenerationRecordSchema, TaskQueueRecordSchema } from './task-queue-record.ts';

/** A record of the queue's index partition: generation `gen` holds the queue from now on. */
export interface TaskGenerationRecord {
  t: 'generation';
  gen: number;
}

/** What a task queue's journal holds: its records, and the generation markers of its index. */
export type TaskLogRecord = TaskQueueRecord | TaskGenerationRecord;

const generationPartition = (name: string, gen: number) => `${name}~${gen}`;

/**
 * The journal of one task queue, compacted by generations so that neither opening nor memory
 * grows with its history. Records go to partition `<name>~<gen>`; a compaction starts generation
 * `gen + 1` with one `snapshot` record (every task as it stands, including the changes still on
 * their way to disk) and appends a marker to the index partition `<name>`. Opening reads the
 * index (one line per compaction) and the newest generation that begins with its snapshot, so a
 * crash anywhere during a compaction falls back to the generation before. Records appended after
 * a switch are acknowledged only once the new generation's snapshot and marker are on disk too.
 * Older generation files are never read again; the journal has no delete, so they stay on disk
 * until an operator removes them (any generation below the last marker's is safe to delete).
 */
export class TaskQueueLog {
  #gen: number;
  #switched: Promise<unknown> | undefined;
  /** Appended, not yet on disk, and not yet applied to the book. */
  readonly #inflight = new Set<TaskQueueRecord>();
  /** Records appended to the current generation (its size, to decide when to compact). */
  sinceSnapshot: number;

  private constructor(
    private readonly journal: Journal<TaskLogRecord>,
    private readonly name: string,
    gen: number,
    length: number,
  ) {
    this.#gen = gen;
    this.sinceSnapshot = length;
  }

  /** Opens the log of queue `name` and hands back the records of its newest usable generation. */
  static async open(
    journal: Journal<TaskLogRecord>,
    name: string,
  ): Promise<{ log: TaskQueueLog; records: TaskQueueRecord[] }> {
    const markers = (await journal.read(name)).map((entry) =>
      parseJournalRecord(TaskGenerationRecordSchema, entry, name, 'task queue generation marker'),
    );
    const gens = [0, ...markers.map((marker) => marker.gen)];
    for (let i = gens.length - 1; i >= 0; i--) {
      const partition = generationPartition(name, gens[i]!);
      const records = (await journal.read(partition)).map((entry) =>
        parseJournalRecord(TaskQueueRecordSchema, entry, partition, 'task queue record'),
      );
      if (gens[i] !== 0 && records[0]?.t !== 'snapshot') continue; // its compaction never reached the disk
      const log = new TaskQueueLog(journal, name, Math.max(...gens), records.length);
      if (log.#gen !== gens[i]) log.compactFrom(records);
      return { log, records };
    }
    throw new Error('unreachable: generation 0 needs no snapshot');
  }

  /**
   * Appends `record`; `apply` runs once it is durable (and, after a compaction, once the new
   * generation is), just before the returned promise resolves.
   */
  append(record: TaskQueueRecord, apply?: () => void): Promise<void> {
    this.sinceSnapshot++;
    const written = this.journal.append(generationPartition(this.name, this.#gen), record);
    const durable = this.#switched ? Promise.all([written, this.#switched]) : written;
    if (!apply) return durable.then(() => undefined);
    this.#inflight.add(record);
    return durable.then(
      () => {
        this.#inflight.delete(record);
        apply();
      },
      (error: unknown) => {
        this.#inflight.delete(record);
        throw error;
      },
    );
  }

  /**
   * Starts a new generation with `book`'s tasks, plus the records still in flight (they are
   * applied to a copy, so the snapshot holds what the disk will hold once they land).
   */
  compact(book: TaskBook): void {
    const copy = new TaskBook(() => 0);
    copy.apply({ t: 'snapshot', tasks: book.snapshot() });
    for (const record of this.#inflight) copy.apply(record);
    this.#startGeneration(copy);
  }

  /** After a crash in a compaction: the records read are written again as a new generation. */
  private compactFrom(records: TaskQueueRecord[]): void {
    const copy = new TaskBook(() => 0);
    for (const record of records) copy.apply(record);
    this.#startGeneration(copy);
  }

  #startGeneration(book: TaskBook): void {
    const gen = this.#gen + 1;
    const snapshot = this.journal.append(generationPartition(this.name, gen), {
      t: 'snapshot',
      tasks: book.snapshot(),
    });
    const marker = this.journal.append(this.name, { t: 'generation', gen });
    this.#gen = gen;
    this.sinceSnapshot = 1;
    const switched = Promise.all([snapshot, marker]);
    this.#switched = switched;
    // Once on disk, later appends need not wait for it; a failure is seen by every later append.
    switched.then(
      () => {
        if (this.#switched === switched) this.#switched = undefined;
      },
      () => {},
    );
  }
}
