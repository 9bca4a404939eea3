import { NotFoundError } from '../../protocol/runtime/runtime-error.ts';
import type { TaskError, TaskSpecInput, TaskView } from '../../protocol/runtime/task-spec.ts';
import { backoffDelay } from './backoff.ts';
import { realClock, type ServiceClock } from './clock.ts';
import { DeadlineTimers } from './deadline-timers.ts';
import type { TaskAttemptOutcome } from './task-attempt.ts';
import { TaskBook, type TaskQueueRecord } from './task-book.ts';
import { TaskQueueBrokenError } from './task-queue-broken-error.ts';
export { TaskQueueBrokenError } from './task-queue-broken-error.ts';
import { failureRecord, interruptedRecords } from './task-failure-record.ts';
import { TaskQueueLog } from './task-queue-log.ts';
import { ownerChangeRecord, type OwnerChange } from './task-owner-change.ts';
import { validateSubmission } from './task-submission.ts';
import type { SubmitAnswer, TaskQueueEvent, TaskQueueOptions } from './task-queue-options.ts';
export type { SubmitAnswer, TaskQueueEvent, TaskQueueOptions } from './task-queue-options.ts';
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
  readonly #clock: ServiceClock;
  readonly #log: TaskQueueLog;
  readonly #book: TaskBook;
  readonly #pool: TaskWorkerPool;
  readonly #retries: DeadlineTimers<string>;
  readonly #reserved = new Set<string>();
  readonly #dirty = new Set<string>();
  readonly #watchers = new TaskWatchers((error) => this.#reportError(error));
  #closed = false;
  #broken: TaskQueueBrokenError | undefined;
  /** Owner changes run one at a time, and nothing starts while one waits for the disk. */
  #ownerChanges: Promise<unknown> = Promise.resolve();
  #holding = 0;

  /** @internal use {@link openTaskQueue}. */
  constructor(options: TaskQueueOptions, log: TaskQueueLog, records: TaskQueueRecord[]) {
    this.#options = options;
    this.#clock = options.clock ?? realClock;
    this.#log = log;
    this.#pool = new TaskWorkerPool(options.workers, this.#clock);
    this.#retries = new DeadlineTimers(this.#clock);
    this.#book = new TaskBook(this.#clock.now.bind(this.#clock), (agentType) => this.#dirty.add(agentType));
    for (const record of records) this.#book.apply(record);
    this.#recoverInterrupted();
    this.#pump();
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
      await this.#append(record, () => {
        for (const spec of specs) this.#reserved.delete(spec.task_id);
        this.#book.apply(record);
        this.#pump();
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
    this.#retries.clear();
    this.#pool.abortAll({ code: 'interrupted', message: 'The task queue was closed.', transient: true });
  }

  get #maxQueued(): number {
    return this.#options.maxQueued ?? 10_000;
  }

  #assertOpen(): void {
    if (this.#broken) throw this.#broken;
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
        await this.#append(record, () => {
          this.#book.apply(record);
          if (record.t === 'failed') this.#emit({ type: 'task.failed', taskId, error: record.error });
        });
      } finally {
        this.#holding--;
      }
      this.#afterChange(taskId);
      return this.#viewOf(taskId);
    };
    const result = this.#ownerChanges.then(run, run);
    this.#ownerChanges = result.catch(() => {});
    return result;
  }

  /** Journals `record`, then runs `apply`; a failed append breaks the queue (see {@link TaskQueueBrokenError}). */
  #append(record: TaskQueueRecord, apply?: () => void): Promise<void> {
    return this.#write(record, apply).catch((error: unknown) => {
      throw this.#break(error);
    });
  }

  /** Journals `record` (compacting when due), then runs `apply`; a failure is the caller's to handle. */
  #write(record: TaskQueueRecord, apply?: () => void): Promise<void> {
    const written = this.#log.append(record, apply);
    const { compactAfter = 10_000, keepCompleted = 10_000 } = this.#options;
    if (this.#log.sinceSnapshot >= Math.max(compactAfter, 2 * this.#book.size)) {
      this.#book.forgetCompleted(keepCompleted);
      this.#log.compact(this.#book);
    }
    return written;
  }

  #emit(event: TaskQueueEvent): void {
    if (this.#closed) return; // a closed queue has nothing more to say (its journal may still take a write)
    this.#watchers.emit(event);
  }

  /** Tells waiters and subscribers about a final task, and starts what became ready. */
  #afterChange(taskId: string): void {
    const status = this.#book.peek(taskId)?.status;
    if (status === 'completed' || status === 'failed') this.#watchers.settle(taskId, () => this.#book.view(taskId)!);
    this.#pump();
  }

  /** Starts ready tasks while their agent types have free workers. */
  #pump(): void {
    if (this.#closed || this.#broken || this.#holding > 0) return;
    for (const agentType of this.#dirty) {
      while (this.#pool.hasFreeWorker(agentType)) {
        const id = this.#book.next(agentType);
        if (id === undefined) break;
        this.#start(id, agentType);
      }
      this.#dirty.delete(agentType);
    }
  }

  #start(id: string, agentType: string): void {
    const task = this.#book.peek(id)!;
    const attempt = task.attempts + 1;
    const waitedMs = this.#clock.now() - (task.ready_at ?? this.#clock.now());
    const record: TaskQueueRecord = { t: 'started', task_id: id, attempt };
    this.#book.apply(record);
    this.#append(record).catch(() => {}); // it broke the queue, which reported it
    const view = this.#book.view(id)!;
    const dependencyResults = Object.fromEntries(view.dependencies.map((d) => [d, this.#book.peek(d)?.result]));
    const done = this.#pool.run(view, attempt, dependencyResults);
    this.#emit({ type: 'task.started', taskId: id, agentType, attempt, waitedMs });
    void done.then((outcome) => {
      this.#dirty.add(agentType); // its worker is free again
      this.#ended(id, agentType, attempt, outcome);
    });
  }

  /**
   * Journals how an attempt ended (its worker is already free). A completion counts, and
   * releases dependents, once it is on disk; until then the task shows `running` without
   * holding a worker.
   */
  #ended(id: string, agentType: string, attempt: number, outcome: TaskAttemptOutcome): void {
    if (this.#closed) return;
    if (outcome.ok) {
      const record: TaskQueueRecord = { t: 'completed', task_id: id, result: outcome.result };
      // Memory is not ahead when a completion is refused: its failure is journaled instead.
      this.#write(record, () => {
        this.#book.apply(record);
        this.#emit({ type: 'task.completed', taskId: id });
        this.#afterChange(id);
      }).catch((error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        const failure: TaskError = {
          code: 'result_not_stored',
          message: `The result of task ${id} could not be journaled (${message}); results must be JSON.`,
          transient: false,
        };
        this.#ended(id, agentType, attempt, { ok: false, error: failure, partials: [] });
      });
      this.#pump();
      return;
    }
    const { error, partials } = outcome;
    const policy = this.#pool.retryPolicy(agentType);
    const record = failureRecord({
      task_id: id,
      attempt,
      error,
      partials,
      policy,
      retryAt: this.#clock.now() + backoffDelay(policy.backoff, attempt, this.#options.random),
    });
    // Like a completion: the task shows `running`, without a worker, until its failure is on disk.
    this.#append(record, () => {
      this.#book.apply(record);
      if (record.t === 'attempt_failed') {
        this.#armRetry(id, record.retry_at);
        this.#emit({ type: 'task.retrying', taskId: id, retryAt: record.retry_at, error });
      } else this.#emit({ type: 'task.failed', taskId: id, error });
      this.#afterChange(id);
    }).catch(() => {}); // it broke the queue, which reported it
    this.#pump();
  }

  /** A retrying task joins its line again at `at` (at once when that time has passed). */
  #armRetry(id: string, at: number): void {
    const requeue = () => {
      this.#book.requeue(id);
      this.#pump();
    };
    if (at <= this.#clock.now()) requeue();
    else this.#retries.arm(id, at, requeue);
  }

  /** After a restart: each task that was running lost its attempt (see {@link openTaskQueue}). */
  #recoverInterrupted(): void {
    const policyOf = (agentType: string) => this.#pool.retryPolicy(agentType);
    for (const record of interruptedRecords(this.#book, policyOf, this.#clock.now())) {
      this.#book.apply(record); // nothing was observable yet: the queue is still opening
      this.#append(record).catch(() => {}); // it broke the queue, which reported it
    }
    for (const [id, status] of [...this.#book.statuses()]) {
      if (status === 'retrying') this.#armRetry(id, this.#book.peek(id)!.retry_at ?? 0);
    }
  }

  /** Latches the broken state once (reporting it) and hands back the error for callers. */
  #break(error: unknown): TaskQueueBrokenError {
    if (!this.#broken) {
      this.#broken =
        error instanceof TaskQueueBrokenError ? error : new TaskQueueBrokenError(this.#options.name, error);
      this.#retries.clear();
      this.#reportError(this.#broken);
    }
    return this.#broken;
  }

  #reportError(error: unknown): void {
    (this.#options.onError ?? console.error)(error);
  }
}
