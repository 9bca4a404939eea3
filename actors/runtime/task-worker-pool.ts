import type { TaskError, TaskView } from '../../protocol/runtime/task-spec.ts';
import type { BackoffPolicy } from './backoff.ts';
import type { ServiceClock } from './clock.ts';
import { runTaskAttempt, type TaskAttempt, type TaskAttemptOutcome, type TaskExecutor } from './task-attempt.ts';

/** How often a failed attempt is tried again: transient failures only, `maxAttempts` in all. */
export interface TaskRetryPolicy {
  maxAttempts: number;
  backoff: BackoffPolicy;
}

/** The workers of one agent type: at most `concurrency` of its tasks execute at once. */
export interface TaskWorkerConfig {
  concurrency: number;
  executor: TaskExecutor;
  /** Default time limit of its tasks (a task's `time_limit_ms` overrides it); 60 s. */
  timeLimitMs?: number;
  /** 3 attempts, backoff from 1 s up to 30 s. */
  retry?: TaskRetryPolicy;
}

const DEFAULT_RETRY: TaskRetryPolicy = { maxAttempts: 3, backoff: { baseMs: 1_000, maxMs: 30_000 } };
const DEFAULT_TIME_LIMIT_MS = 60_000;

/**
 * The workers of every agent type a system declared: how many of each type's attempts execute
 * now, and the attempts themselves. A worker is taken by `run` and given back the moment its
 * attempt ends (result, error, time limit or abort), before the outcome is handed on.
 *
 * @example
 * const pool = new TaskWorkerPool({ reviewer: { concurrency: 4, executor } }, clock);
 * if (pool.hasFreeWorker('reviewer')) void pool.run(view, 1, {}).then(record);
 */
export class TaskWorkerPool {
  readonly #running = new Map<string, number>();
  readonly #attempts = new Map<string, TaskAttempt>();

  constructor(
    private readonly workers: Readonly<Record<string, TaskWorkerConfig>>,
    private readonly clock: ServiceClock,
  ) {}

  /** The declared agent types. */
  get agentTypes(): string[] {
    return Object.keys(this.workers);
  }

  has(agentType: string): boolean {
    return Object.hasOwn(this.workers, agentType);
  }

  hasFreeWorker(agentType: string): boolean {
    const worker = this.workers[agentType];
    return worker !== undefined && this.running(agentType) < worker.concurrency;
  }

  /** Attempts of `agentType` executing now. */
  running(agentType: string): number {
    return this.#running.get(agentType) ?? 0;
  }

  retryPolicy(agentType: string): TaskRetryPolicy {
    return this.workers[agentType]?.retry ?? DEFAULT_RETRY;
  }

  /** Runs attempt `attempt` of `task` on a worker of its agent type (check `hasFreeWorker` first). */
  run(
    task: TaskView,
    attempt: number,
    dependencyResults: Readonly<Record<string, unknown>>,
  ): Promise<TaskAttemptOutcome> {
    const worker = this.workers[task.agent_type];
    if (!worker) throw new Error(`No workers for agent type ${task.agent_type} (a bug: the queue checks first).`);
    const type = task.agent_type;
    this.#running.set(type, this.running(type) + 1);
    const run = runTaskAttempt({
      task,
      attempt,
      executor: worker.executor,
      clock: this.clock,
      timeLimitMs: task.time_limit_ms ?? worker.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS,
      dependencyResults,
    });
    this.#attempts.set(task.task_id, run);
    return run.done.then((outcome) => {
      this.#attempts.delete(task.task_id);
      this.#running.set(type, this.running(type) - 1);
      return outcome;
    });
  }

  /** Ends every attempt under way with `error` (their signals abort). */
  abortAll(error: TaskError): void {
    for (const attempt of [...this.#attempts.values()]) attempt.abort(error);
  }
}
