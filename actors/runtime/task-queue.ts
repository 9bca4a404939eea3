import { ConflictError, NotFoundError, ValidationError } from '../../protocol/runtime/runtime-error.ts';
import type { TaskError, TaskSpecInput, TaskView } from '../../protocol/runtime/task-spec.ts';
import { backoffDelay, type BackoffPolicy } from './backoff.ts';
import { realClock, type ServiceClock } from './clock.ts';
import type { Journal } from './journal.ts';
import { runTaskAttempt, type TaskAttempt, type TaskAttemptOutcome, type TaskExecutor } from './task-attempt.ts';
import { TaskBook, type TaskQueueRecord } from './task-book.ts';
import { TaskQueueLog, type TaskLogRecord } from './task-queue-log.ts';
import { validateSubmission } from './task-submission.ts';

/** How often a failed attempt is tried again: transient failures only, `maxAttempts` in all. */
export interface TaskRetryPolicy {
  maxAttempts: number;
  backoff: BackoffPolicy;
}

/** The workers of one agent type: at most `concurrency` of its tasks run at once. */
export interface TaskWorkerConfig {
  concurrency: number;
  executor: TaskExecutor;
  /** Default time limit of its tasks (a task's `time_limit_ms` overrides it); 60 s. */
  timeLimitMs?: number;
  /** 3 attempts, backoff from 1 s up to 30 s. */
  retry?: TaskRetryPolicy;
}

/** What `openTaskQueue` needs; agent types are the keys of `workers`, declared by the system. */
export interface TaskQueueOptions {
  journal: Journal<TaskLogRecord>;
  /** The queue's name, and its journal partitions' prefix (one queue per run, project, ...). */
  name: string;
  workers: Readonly<Record<string, TaskWorkerConfig>>;
  clock?: ServiceClock;
  /** Unfinished tasks at most; beyond, `submit` answers `throttled` (10,000). */
  maxQueued?: number;
  /** The `retry_after_ms` of a `throttled` answer (1,000). */
  throttleRetryAfterMs?: number;
  /** Records in a journal generation before it is compacted (at least twice the tasks held; 10,000). */
  compactAfter?: number;
  /** Completed tasks kept once nothing unfinished names them (10,000); older ones are forgotten. */
  keepCompleted?: number;
  /** The draw of the backoff's jitter (tests pass a fixed one). */
  random?: () => number;
  /** Told what the queue could not journal (`console.error`). */
  onError?: (error: unknown) => void;
}

/** The answer to `submit`: accepted (on disk), or refused for now because the queue is full. */
export type SubmitAnswer =
  | { status: 'accepted'; task_ids: string[] }
  | { status: 'throttled'; retry_after_ms: number; queued: number; max_queued: number };

/** What the queue tells its subscribers. */
export type TaskQueueEvent =
  | { type: 'task.started'; task_id: string; agent_type: string; attempt: number; waited_ms: number }
  | { type: 'task.completed'; task_id: string }
  | { type: 'task.retrying'; task_id: string; retry_at: number; error: TaskError }
  | { type: 'task.failed'; task_id: string; error: TaskError };

const DEFAULT_RETRY: TaskRetryPolicy = { maxAttempts: 3, backoff: { baseMs: 1_000, maxMs: 30_000 } };

/**
 * Opens a durable task queue (spec 003, Pattern 1) over `journal`, rebuilding it from its records.
 * Tasks wait for their dependencies, then for a worker of their agent type: the most urgent
 * priority first, first in first out within one. Each attempt runs under a time limit that aborts
 * the executor's signal and keeps its partials; transient failures are retried with backoff; a
 * failure that is not (or the last attempt) fails the task, and blocks every task that depends
 * on it until the owner `retry`s or `reassign`s it, or `fail`s the dependents.
 *
 * Durability: `submit` and a completion are acknowledged once journaled, and a dependent starts
 * only once its dependencies' completions are on disk. A task running when the process stopped
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
  readonly #running = new Map<string, number>();
  readonly #attempts = new Map<string, TaskAttempt>();
  readonly #timers = new Map<string, unknown>();
  readonly #reserved = new Set<string>();
  readonly #dirty = new Set<string>();
  readonly #listeners = new Set<(event: TaskQueueEvent) => void>();
  readonly #waiters = new Map<string, ((view: TaskView) => void)[]>();
  #closed = false;

  /** @internal use {@link openTaskQueue}. */
  constructor(options: TaskQueueOptions, log: TaskQueueLog, records: TaskQueueRecord[]) {
    this.#options = options;
    this.#clock = options.clock ?? realClock;
    this.#log = log;
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
      agentTypes: Object.keys(this.#options.workers),
      known: (id) => this.#book.has(id) || this.#reserved.has(id),
      maxQueued: this.#maxQueued,
    });
    const queued = this.#book.unfinished + this.#reserved.size;
    if (queued + specs.length > this.#maxQueued) {
      const retry_after_ms = this.#options.throttleRetryAfterMs ?? 1_000;
      return { status: 'throttled', retry_after_ms, queued, max_queued: this.#maxQueued };
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
    return { status: 'accepted', task_ids: specs.map((spec) => spec.task_id) };
  }

  /** A task as it stands (frozen), or undefined. */
  get(taskId: string): TaskView | undefined {
    return this.#book.view(taskId);
  }

  /** Resolves with the task once it is completed or failed. */
  settled(taskId: string): Promise<TaskView> {
    const view = this.#viewOf(taskId);
    if (view.status === 'completed' || view.status === 'failed') return Promise.resolve(view);
    return new Promise((resolve) => {
      const list = this.#waiters.get(taskId) ?? [];
      list.push(resolve);
      this.#waiters.set(taskId, list);
    });
  }

  /** A failed task runs again from its first attempt; the tasks it blocked wait for it again. */
  async retry(taskId: string): Promise<TaskView> {
    const view = this.#viewOf(taskId);
    if (view.status !== 'failed') {
      const hint = view.status === 'blocked' ? ` Retry the failed task it waits on, ${view.blocked_by}.` : '';
      throw new ConflictError(
        'task_not_failed',
        `Task ${taskId} is ${view.status}; only a failed task can be retried.${hint}`,
      );
    }
    return this.#ownerChange({ t: 'retried', task_id: taskId });
  }

  /** Moves a task that is not running or completed to another agent type (a failed one runs again). */
  async reassign(taskId: string, agentType: string): Promise<TaskView> {
    const view = this.#viewOf(taskId);
    if (!(agentType in this.#options.workers)) {
      throw new ValidationError(
        `Agent type ${agentType} has no workers: reassign to one of ${Object.keys(this.#options.workers).join(', ')}.`,
        [{ path: 'agent_type', message: 'unknown agent type' }],
        'unknown_agent_type',
      );
    }
    this.#assertIdle(view, 'reassigned');
    return this.#ownerChange({ t: 'reassigned', task_id: taskId, agent_type: agentType });
  }

  /** Fails a task that is not running or completed (a blocked one, say); its dependents are blocked. */
  async fail(taskId: string, reason: string): Promise<TaskView> {
    const view = this.#viewOf(taskId);
    this.#assertIdle(view, 'failed');
    const error: TaskError = { code: 'owner', message: reason, transient: false };
    return this.#ownerChange({ t: 'failed', task_id: taskId, error, partials: [...view.partials] });
  }

  /** Hears every started, completed, retrying and failed task; returns the unsubscribe. */
  subscribe(listener: (event: TaskQueueEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Counts: unfinished tasks, and per agent type the running and ready ones. */
  stats(): { unfinished: number; running: Record<string, number>; ready: Record<string, number> } {
    const types = Object.keys(this.#options.workers);
    return {
      unfinished: this.#book.unfinished,
      running: Object.fromEntries(types.map((type) => [type, this.#running.get(type) ?? 0])),
      ready: Object.fromEntries(types.map((type) => [type, this.#book.readyCount(type)])),
    };
  }

  /**
   * Stops starting tasks, clears retry timers and aborts running attempts (they count as
   * interrupted when the queue is opened again). The journal stays open: its owner closes it.
   */
  close(): void {
    this.#closed = true;
    for (const timer of this.#timers.values()) this.#clock.clearTimeout(timer);
    this.#timers.clear();
    for (const attempt of this.#attempts.values()) {
      attempt.abort({ code: 'interrupted', message: 'The task queue was closed.', transient: true });
    }
  }

  get #maxQueued(): number {
    return this.#options.maxQueued ?? 10_000;
  }

  #policy(agentType: string): TaskRetryPolicy {
    return this.#options.workers[agentType]?.retry ?? DEFAULT_RETRY;
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error(`Task queue ${this.#options.name} is closed: open it again to use it.`);
  }

  #viewOf(taskId: string): TaskView {
    const view = this.#book.view(taskId);
    if (!view) throw new NotFoundError(`Task ${taskId}`);
    return view;
  }

  #assertIdle(view: TaskView, verb: string): void {
    if (view.status === 'running' || view.status === 'completed') {
      throw new ConflictError(
        `task_${view.status}`,
        `Task ${view.task_id} is ${view.status}, so it cannot be ${verb}` +
          (view.status === 'running' ? ': wait for its attempt to end (its time limit bounds it).' : '.'),
      );
    }
  }

  /** An owner's change applies at once (it starts nothing before it is on disk that a crash could regret). */
  async #ownerChange(record: TaskQueueRecord & { task_id: string }): Promise<TaskView> {
    this.#assertOpen();
    this.#book.apply(record);
    if (record.t === 'failed') this.#emit({ type: 'task.failed', task_id: record.task_id, error: record.error });
    this.#afterChange(record.task_id);
    await this.#append(record);
    return this.#viewOf(record.task_id);
  }

  #append(record: TaskQueueRecord, apply?: () => void): Promise<void> {
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
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.#reportError(error); // a listener's bug must not stop the queue
      }
    }
  }

  /** Tells waiters and subscribers about a final task, and starts what became ready. */
  #afterChange(taskId: string): void {
    const view = this.#book.view(taskId);
    if (view?.status === 'completed' || view?.status === 'failed') {
      const waiters = this.#waiters.get(taskId);
      this.#waiters.delete(taskId);
      for (const resolve of waiters ?? []) resolve(view);
    }
    this.#pump();
  }

  /** Starts ready tasks while their agent types have free workers. */
  #pump(): void {
    if (this.#closed) return;
    for (const agentType of this.#dirty) {
      const worker = this.#options.workers[agentType];
      while (worker && (this.#running.get(agentType) ?? 0) < worker.concurrency) {
        const id = this.#book.next(agentType);
        if (id === undefined) break;
        this.#start(id, agentType, worker.executor, worker.timeLimitMs ?? 60_000);
      }
      this.#dirty.delete(agentType);
    }
  }

  #start(id: string, agentType: string, executor: TaskExecutor, defaultLimitMs: number): void {
    const task = this.#book.peek(id)!;
    const attempt = task.attempts + 1;
    const waited_ms = this.#clock.now() - (task.ready_at ?? this.#clock.now());
    const record: TaskQueueRecord = { t: 'started', task_id: id, attempt };
    this.#book.apply(record);
    this.#append(record).catch((error: unknown) => this.#reportError(error));
    this.#running.set(agentType, (this.#running.get(agentType) ?? 0) + 1);
    const view = this.#book.view(id)!;
    const dependencyResults = Object.fromEntries(view.dependencies.map((d) => [d, this.#book.peek(d)?.result]));
    const run = runTaskAttempt({
      task: view,
      attempt,
      executor,
      clock: this.#clock,
      timeLimitMs: view.time_limit_ms ?? defaultLimitMs,
      dependencyResults,
    });
    this.#attempts.set(id, run);
    this.#emit({ type: 'task.started', task_id: id, agent_type: agentType, attempt, waited_ms });
    void run.done.then((outcome) => this.#ended(id, agentType, attempt, outcome));
  }

  /** Journals how an attempt ended, then frees its worker. */
  #ended(id: string, agentType: string, attempt: number, outcome: TaskAttemptOutcome): void {
    if (this.#closed) return;
    const free = () => {
      this.#attempts.delete(id);
      this.#running.set(agentType, (this.#running.get(agentType) ?? 1) - 1);
      this.#dirty.add(agentType);
    };
    if (outcome.ok) {
      const record: TaskQueueRecord = { t: 'completed', task_id: id, result: outcome.result };
      this.#append(record, () => {
        free();
        this.#book.apply(record);
        this.#emit({ type: 'task.completed', task_id: id });
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
      return;
    }
    const { error, partials } = outcome;
    const policy = this.#policy(agentType);
    const record: TaskQueueRecord =
      error.transient && attempt < policy.maxAttempts
        ? {
            t: 'attempt_failed',
            task_id: id,
            error,
            partials,
            retry_at: this.#clock.now() + backoffDelay(policy.backoff, attempt, this.#options.random),
          }
        : { t: 'failed', task_id: id, error, partials };
    free();
    this.#book.apply(record);
    if (record.t === 'attempt_failed') {
      this.#armRetry(id, record.retry_at);
      this.#emit({ type: 'task.retrying', task_id: id, retry_at: record.retry_at, error });
    } else this.#emit({ type: 'task.failed', task_id: id, error });
    this.#afterChange(id);
    this.#append(record).catch((failure: unknown) => this.#reportError(failure));
  }

  #armRetry(id: string, at: number): void {
    const requeue = () => {
      this.#timers.delete(id);
      this.#book.requeue(id);
      this.#pump();
    };
    const delay = at - this.#clock.now();
    if (delay <= 0) requeue();
    else this.#timers.set(id, this.#clock.setTimeout(requeue, delay));
  }

  /** After a restart: each task that was running lost its attempt (see {@link openTaskQueue}). */
  #recoverInterrupted(): void {
    for (const [id, status] of [...this.#book.statuses()]) {
      const task = this.#book.peek(id)!;
      if (status === 'retrying') this.#armRetry(id, task.retry_at ?? 0);
      if (status !== 'running') continue;
      const error: TaskError = {
        code: 'interrupted',
        message: `Attempt ${task.attempts} of task ${id} was cut short when the process stopped.`,
        transient: true,
      };
      const record: TaskQueueRecord =
        task.attempts < this.#policy(task.agent_type).maxAttempts
          ? { t: 'attempt_failed', task_id: id, error, partials: [], retry_at: this.#clock.now() }
          : { t: 'failed', task_id: id, error, partials: [] };
      this.#book.apply(record);
      if (record.t === 'attempt_failed') this.#book.requeue(id);
      this.#append(record).catch((failure: unknown) => this.#reportError(failure));
    }
  }

  #reportError(error: unknown): void {
    (this.#options.onError ?? console.error)(error);
  }
}
