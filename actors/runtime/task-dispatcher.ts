import { errorMessage } from '../../protocol/runtime/error-message.ts';
import type { TaskError } from '../../protocol/runtime/task-spec.ts';
import { backoffDelay } from './backoff.ts';
import type { ServiceClock } from './clock.ts';
import { DeadlineTimers } from './deadline-timers.ts';
import type { TaskAttemptOutcome } from './task-attempt.ts';
import type { TaskBook, TaskQueueRecord } from './task-book.ts';
import { failureRecord, interruptedRecords } from './task-failure-record.ts';
import type { TaskQueueEvent } from './task-queue-options.ts';
import type { TaskQueueWriter } from './task-queue-writer.ts';
import type { TaskWorkerPool } from './task-worker-pool.ts';

/** What the dispatcher asks of its queue. */
export interface TaskDispatcherHooks {
  /** Nothing may start now (closed, broken, or an owner's change waits for the disk). */
  paused(): boolean;
  /** The queue was closed: an attempt that ends now is not recorded. */
  closed(): boolean;
  emit(event: TaskQueueEvent): void;
  /** The task is final (completed or failed): its waiters hear it. */
  settle(taskId: string): void;
}

/**
 * The task queue's attempts: starts ready tasks while their agent types have free workers, and
 * journals how each attempt ended. A completion or failure counts (releasing dependents, arming
 * a retry) once it is on disk; until then the task shows `running` without holding a worker. A
 * retry joins its line again at its time; after a restart, each task that was running lost its
 * attempt and is ready again at once (or failed `interrupted` when that was its last).
 *
 * @example
 * const dispatcher = new TaskDispatcher({ book, pool, writer, clock, hooks });
 * dispatcher.markReady('reviewer'); dispatcher.pump();
 */
export class TaskDispatcher {
  /** Agent types that may have a ready task and a free worker. */
  readonly #ready = new Set<string>();
  readonly #retries: DeadlineTimers<string>;
  readonly #book: TaskBook;
  readonly #pool: TaskWorkerPool;
  readonly #writer: TaskQueueWriter;
  readonly #clock: ServiceClock;
  readonly #random: (() => number) | undefined;
  readonly #hooks: TaskDispatcherHooks;

  constructor(parts: {
    book: TaskBook;
    pool: TaskWorkerPool;
    writer: TaskQueueWriter;
    clock: ServiceClock;
    /** The draw of the backoff's jitter. */
    random?: (() => number) | undefined;
    hooks: TaskDispatcherHooks;
  }) {
    this.#book = parts.book;
    this.#pool = parts.pool;
    this.#writer = parts.writer;
    this.#clock = parts.clock;
    this.#random = parts.random;
    this.#hooks = parts.hooks;
    this.#retries = new DeadlineTimers(parts.clock);
  }

  /** A task of `agentType` joined its ready line, or one of its workers is free again. */
  markReady(agentType: string): void {
    this.#ready.add(agentType);
  }

  /** Starts ready tasks while their agent types have free workers. */
  pump(): void {
    if (this.#hooks.paused()) return;
    for (const agentType of this.#ready) {
      while (this.#pool.hasFreeWorker(agentType)) {
        const id = this.#book.next(agentType);
        if (id === undefined) break;
        this.#start(id, agentType);
      }
      this.#ready.delete(agentType);
    }
  }

  /** Tells waiters about a final task, and starts what became ready. */
  afterChange(taskId: string): void {
    const status = this.#book.peek(taskId)?.status;
    if (status === 'completed' || status === 'failed') this.#hooks.settle(taskId);
    this.pump();
  }

  /** After a restart: each task that was running lost its attempt; retry timers resume. */
  recoverInterrupted(): void {
    const policyOf = (agentType: string) => this.#pool.retryPolicy(agentType);
    for (const record of interruptedRecords(this.#book, policyOf, this.#clock.now())) {
      this.#book.apply(record); // nothing was observable yet: the queue is still opening
      this.#writer.append(record).catch(() => {}); // it broke the queue, which reported it
    }
    for (const [id, status] of [...this.#book.statuses()]) {
      if (status === 'retrying') this.#armRetry(id, this.#book.peek(id)!.retry_at ?? 0);
    }
  }

  /** Cancels every retry timer (the queue closed or broke). */
  clearRetries(): void {
    this.#retries.clear();
  }

  #start(id: string, agentType: string): void {
    const task = this.#book.peek(id)!;
    const attempt = task.attempts + 1;
    const waitedMs = this.#clock.now() - (task.ready_at ?? this.#clock.now());
    const record: TaskQueueRecord = { t: 'started', task_id: id, attempt };
    this.#book.apply(record);
    this.#writer.append(record).catch(() => {}); // it broke the queue, which reported it
    const view = this.#book.view(id)!;
    const dependencyResults = Object.fromEntries(view.dependencies.map((d) => [d, this.#book.peek(d)?.result]));
    const done = this.#pool.run(view, attempt, dependencyResults);
    this.#hooks.emit({ type: 'task.started', taskId: id, agentType, attempt, waitedMs });
    void done.then((outcome) => {
      this.#ready.add(agentType); // its worker is free again
      this.#ended(id, agentType, attempt, outcome);
    });
  }

  /** Journals how an attempt ended (its worker is already free). */
  #ended(id: string, agentType: string, attempt: number, outcome: TaskAttemptOutcome): void {
    if (this.#hooks.closed()) return;
    if (outcome.ok) {
      const record: TaskQueueRecord = { t: 'completed', task_id: id, result: outcome.result };
      // Memory is not ahead when a completion is refused: its failure is journaled instead.
      this.#writer
        .write(record, () => {
          this.#book.apply(record);
          this.#hooks.emit({ type: 'task.completed', taskId: id });
          this.afterChange(id);
        })
        .catch((error: unknown) => {
          const message = errorMessage(error);
          const failure: TaskError = {
            code: 'result_not_stored',
            message: `The result of task ${id} could not be journaled (${message}); results must be JSON.`,
            transient: false,
          };
          this.#ended(id, agentType, attempt, { ok: false, error: failure, partials: [] });
        });
      this.pump();
      return;
    }
    const { error, partials } = outcome;
    const policy = this.#pool.retryPolicy(agentType);
    const retryAt = this.#clock.now() + backoffDelay(policy.backoff, attempt, this.#random);
    const record = failureRecord({ task_id: id, attempt, error, partials, policy, retryAt });
    // Like a completion: the task shows `running`, without a worker, until its failure is on disk.
    this.#writer
      .append(record, () => {
        this.#book.apply(record);
        if (record.t === 'attempt_failed') {
          this.#armRetry(id, record.retry_at);
          this.#hooks.emit({ type: 'task.retrying', taskId: id, retryAt: record.retry_at, error });
        } else this.#hooks.emit({ type: 'task.failed', taskId: id, error });
        this.afterChange(id);
      })
      .catch(() => {}); // it broke the queue, which reported it
    this.pump();
  }

  /** A retrying task joins its line again at `at` (at once when that time has passed). */
  #armRetry(id: string, at: number): void {
    const requeue = () => {
      this.#book.requeue(id);
      this.pump();
    };
    if (at <= this.#clock.now()) requeue();
    else this.#retries.arm(id, at, requeue);
  }
}
