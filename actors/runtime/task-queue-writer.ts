import type { TaskBook, TaskQueueRecord } from './task-book.ts';
import { TaskQueueBrokenError } from './task-queue-broken-error.ts';
import type { TaskQueueLog } from './task-queue-log.ts';
import type { TaskQueueOptions } from './task-queue-options.ts';

/**
 * How a task queue writes: each record to its log (compacting the log when it has grown past
 * `compactAfter` records and twice the tasks held), and the change it stands for applied only once
 * it is on disk. A failed `append` breaks the queue for good (memory may be ahead of the journal):
 * the first failure is latched as a {@link TaskQueueBrokenError} and handed to `onBreak` once.
 *
 * @example
 * const writer = new TaskQueueWriter(log, book, options, (broken) => report(broken));
 * await writer.append(record, () => book.apply(record));
 */
export class TaskQueueWriter {
  #broken: TaskQueueBrokenError | undefined;

  constructor(
    private readonly log: TaskQueueLog,
    private readonly book: TaskBook,
    private readonly options: Pick<TaskQueueOptions, 'name' | 'compactAfter' | 'keepCompleted'>,
    private readonly onBreak: (broken: TaskQueueBrokenError) => void,
  ) {}

  /** The error that broke the queue, once a record could not be journaled. */
  get broken(): TaskQueueBrokenError | undefined {
    return this.#broken;
  }

  /** Journals `record`, then runs `apply`; a failed append breaks the queue (see {@link TaskQueueBrokenError}). */
  append(record: TaskQueueRecord, apply?: () => void): Promise<void> {
    return this.write(record, apply).catch((error: unknown) => {
      throw this.break(error);
    });
  }

  /** Journals `record` (compacting when due), then runs `apply`; a failure is the caller's to handle. */
  write(record: TaskQueueRecord, apply?: () => void): Promise<void> {
    const written = this.log.append(record, apply);
    const { compactAfter = 10_000, keepCompleted = 10_000 } = this.options;
    if (this.log.sinceSnapshot >= Math.max(compactAfter, 2 * this.book.size)) {
      this.book.forgetCompleted(keepCompleted);
      this.log.compact(this.book);
    }
    return written;
  }

  /** Latches the broken state once (telling `onBreak`) and hands back the error for callers. */
  break(error: unknown): TaskQueueBrokenError {
    if (!this.#broken) {
      this.#broken = error instanceof TaskQueueBrokenError ? error : new TaskQueueBrokenError(this.options.name, error);
      this.onBreak(this.#broken);
    }
    return this.#broken;
  }
}
