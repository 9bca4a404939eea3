import { NotFoundError } from '../../protocol/runtime/runtime-error.ts';
import type { TaskSpecInput, TaskView } from '../../protocol/runtime/task-spec.ts';
import { realClock, type ServiceClock } from './clock.ts';
import { TaskBook, type TaskQueueRecord } from './task-book.ts';
import { TaskDispatcher } from './task-dispatcher.ts';
export { TaskQueueBrokenError } from './task-queue-broken-error.ts';
import { TaskQueueLog } from './task-queue-log.ts';
import { ownerChangeRecord, type OwnerChange } from './task-owner-change.ts';
import { validateSubmission } from './task-submission.ts';
import type { SubmitAnswer, TaskQueueEvent, TaskQueueOptions } from './task-queue-options.ts';
export type { SubmitAnswer, TaskQueueEvent, TaskQueueOptions } from './task-queue-options.ts';
import { TaskQueueWriter } from './task-queue-writer.ts';
import { TaskWatchers } from './task-watchers.ts';
import { TaskWorkerPool } from './task-worker-pool.ts';

/**
 * Opens a durable task queue (spec 003, Pattern 1) over `journal`, rebuilding it from its records.
 * Tasks wait for their dependencies, then for a worker of their agent type: the most urgent
 * priority first, first in first out within one. Each attempt runs under a time limit that aborts
 * the executor's signal and keeps its partials; transient failures are retried with backoff; a
 * failure that is not (or the last attempt) fails the task, and blocks every task that depends
 * on it until the owner `retry`s or `reassign`s it, or `fail`s the dependents.
 *
 * Durability: nothing is observable (an answer, an event, `settled()`, a dependent's start or
 * block) before the record of its change is on disk: a submission, a completion, a failure, an
 * owner's change. Should an append fail, the queue is broken: memory may be ahead of the journal,
 * so it refuses further input with {@link TaskQueueBrokenError} until it is opened again. A task running when the process stopped
 * has lost that attempt: on reopening it is ready again at once, or failed (`interrupted`) when
 * that was its last attempt. Retry timers resume where they were.
 *
 * @example
 * const queue = await openTaskQueue({ journal, name: 'research/g1', workers: {
 *   reviewer: { concurrency: 4, executor: async (task, { signal }) => review(task.input_data, signal) },
 * } });
 * await queue.submit([{ task_id: 't1', agent_type: 'reviewer', input_data: { id: 'h1' } }]);
 * const done = await queue.settled('t1');
 */
export async function openTaskQueue(options: TaskQueueOptions): Promise<TaskQueue> {
  const { log, records } = await TaskQueueLog.open(options.journal, options.name);
  return new TaskQueue(options, log, records);
}

/** A task queue; open one with {@link openTaskQueue}. */
export class TaskQueue {
  readonly #options: TaskQueueOptions;
  readonly #book: TaskBook;
  readonly #pool: TaskWorkerPool;
  readonly #writer: TaskQueueWriter;
  readonly #dispatcher: TaskDispatcher;
  readonly #reserved = new Set<string>();
  readonly #watchers = new TaskWatchers((error) => this.#reportError(error));
  #closed = false;
  /** Owner changes run one at a time, and nothing starts while one waits for the disk. */
  #ownerChanges: Promise<unknown> = Promise.resolve();
  #holding = 0;

  /** @internal use {@link openTaskQueue}. */
  constructor(options: TaskQueueOptions, log: TaskQueueLog, records: TaskQueueRecord[]) {
    this.#options = options;
    const clock: ServiceClock = options.clock ?? realClock;
    this.#pool = new TaskWorkerPool(options.workers, clock);
    this.#book = new TaskBook(clock.now.bind(clock), (agentType) => this.#dispatcher.markReady(agentType));
    this.#writer = new TaskQueueWriter(log, this.#book, options, (broken) => {
      this.#dispatcher.clearRetries();
      this.#reportError(broken);
    });
    this.#dispatcher = new TaskDispatcher({
      book: this.#book,
      pool: this.#pool,
      writer: this.#writer,
      clock,
      random: options.random,
      hooks: {
        paused: () => this.#closed || this.#writer.broken !== undefined || this.#holding > 0,
        closed: () => this.#closed,
        emit: (event) => this.#emit(event),
        settle: (taskId) => this.#watchers.settle(taskId, () => this.#book.view(taskId)!),
      },
    });
    for (const record of records) this.#book.apply(record);
    this.#dispatcher.recoverInterrupted();
    this.#dispatcher.pump();
  }

  /**
   * Submits tasks, all or none: each valid, new, of a declared agent type, depending only on
   * known tasks or others of the batch, without a cycle. Resolves once they are on disk, or
   * answers `throttled` (nothing written) when they would take the queue past `maxQueued`.
   */
  async submit(tasks: TaskSpecInput | readonly TaskSpecInput[]): Promise<SubmitAnswer> {
    this.#assertOpen();
    const specs = validateSubmission(Array.isArray(tasks) ? tasks : [tasks], {
      agentTypes: this.#pool.agentTypes,
      known: (id) => this.#book.has(id) || this.#reserved.has(id),
      maxQueued: this.#maxQueued,
    });
    const queued = this.#book.unfinished + this.#reserved.size;
    if (queued + specs.length > this.#maxQueued) {
      const retryAfterMs = this.#options.throttleRetryAfterMs ?? 1_000;
      return { status: 'throttled', retryAfterMs, queued, maxQueued: this.#maxQueued };
    }
    for (const spec of specs) this.#reserved.add(spec.task_id);
    const record: TaskQueueRecord = { t: 'submitted', tasks: specs };
    try {
      await this.#writer.append(record, () => {
        for (const spec of specs) this.#reserved.delete(spec.task_id);
        this.#book.apply(record);
        this.#dispatcher.pump();
      });
    } finally {
      for (const spec of specs) this.#reserved.delete(spec.task_id);
    }
    return { status: 'accepted', taskIds: specs.map((spec) => spec.task_id) };
  }

  /** A task as it stands (frozen), or undefined. */
  get(taskId: string): TaskView | undefined {
    return this.#book.view(taskId);
  }

  /** Resolves with the task once it is completed or failed (a blocked task waits for its owner to act). */
  settled(taskId: string): Promise<TaskView> {
    const view = this.#viewOf(taskId);
    if (view.status === 'completed' || view.status === 'failed') return Promise.resolve(view);
    return this.#watchers.wait(taskId);
  }

  /** A failed task runs again from its first attempt; the tasks it blocked wait for it again. */
  retry(taskId: string): Promise<TaskView> {
    return this.#ownerChange(taskId, { kind: 'retry' });
  }

  /** Moves a task that is not running or completed to another agent type (a failed one runs again). */
  reassign(taskId: string, agentType: string): Promise<TaskView> {
    return this.#ownerChange(taskId, { kind: 'reassign', agent_type: agentType });
  }

  /** Fails a task that is not running or completed (a blocked one, say); its dependents are blocked. */
  fail(taskId: string, reason: string): Promise<TaskView> {
    return this.#ownerChange(taskId, { kind: 'fail', reason });
  }

  /** Hears every started, completed, retrying and failed task; returns the unsubscribe. */
  subscribe(listener: (event: TaskQueueEvent) => void): () => void {
    return this.#watchers.subscribe(listener);
  }

  /** Counts: unfinished tasks, and per agent type the running and ready ones. */
  stats(): { unfinished: number; running: Record<string, number>; ready: Record<string, number> } {
    const types = this.#pool.agentTypes;
    return {
      unfinished: this.#book.unfinished,
      running: Object.fromEntries(types.map((type) => [type, this.#pool.running(type)])),
      ready: Object.fromEntries(types.map((type) => [type, this.#book.readyCount(type)])),
    };
  }

  /**
   * Stops starting tasks, clears retry timers and aborts running attempts (they count as
   * interrupted when the queue is opened again). The journal stays open: its owner closes it.
   */
  close(): void {
    this.#closed = true;
    this.#dispatcher.clearRetries();
    this.#pool.abortAll({ code: 'interrupted', message: 'The task queue was closed.', transient: true });
  }

  get #maxQueued(): number {
    return this.#options.maxQueued ?? 10_000;
  }

  #assertOpen(): void {
    if (this.#writer.broken) throw this.#writer.broken;
    if (this.#closed) throw new Error(`Task queue ${this.#options.name} is closed: open it again to use it.`);
  }

  #viewOf(taskId: string): TaskView {
    const view = this.#book.view(taskId);
    if (!view) throw new NotFoundError(`Task ${taskId}`);
    return view;
  }

  /**
   * An owner's change applies once it is on disk. Until then no task starts (so the task it
   * names stays as it was checked), and the next owner change waits its turn.
   */
  #ownerChange(taskId: string, change: OwnerChange): Promise<TaskView> {
    const run = async (): Promise<TaskView> => {
      this.#assertOpen();
      const record = ownerChangeRecord(this.#viewOf(taskId), change, this.#pool.agentTypes);
      this.#holding++;
      try {
        await this.#writer.append(record, () => {
          this.#book.apply(record);
          if (record.t === 'failed') this.#emit({ type: 'task.failed', taskId, error: record.error });
        });
      } finally {
        this.#holding--;
      }
      this.#dispatcher.afterChange(taskId);
      return this.#viewOf(taskId);
    };
    const result = this.#ownerChanges.then(run, run);
    this.#ownerChanges = result.catch(() => {});
    return result;
  }

  #emit(event: TaskQueueEvent): void {
    if (this.#closed) return; // a closed queue has nothing more to say (its journal may still take a write)
    this.#watchers.emit(event);
  }

  #reportError(error: unknown): void {
    (this.#options.onError ?? console.error)(error);
  }
}
