import { errorMessage } from '../../protocol/runtime/error-message.ts';
import { RetryLaterError, RuntimeError } from '../../protocol/runtime/runtime-error.ts';
import type { TaskError, TaskView } from '../../protocol/runtime/task-spec.ts';
import type { ServiceClock } from './clock.ts';

/** What an executor gets beside its task. */
export interface TaskExecutionContext {
  /** Aborted when the task's time limit passes or the queue closes: stop, and keep what you reported. */
  signal: AbortSignal;
  /** Records a partial result; the queue keeps them when the attempt times out or fails. */
  reportPartial(value: unknown): void;
  /** 1 for the first attempt. */
  attempt: number;
  /** The result of each dependency, by task id. */
  dependencyResults: Readonly<Record<string, unknown>>;
}

/**
 * Runs one task for an agent type (supplied by the system). Its result and partials are
 * journaled, so they must be JSON. Throw an error with `transient: true` (or a `RetryLaterError`)
 * for a failure worth retrying; any other error fails the task at once.
 */
export type TaskExecutor = (task: TaskView, context: TaskExecutionContext) => Promise<unknown>;

/** How an attempt ended. */
export type TaskAttemptOutcome = { ok: true; result: unknown } | { ok: false; error: TaskError; partials: unknown[] };

/** One attempt under way: `done` settles exactly once; `abort` ends it now with `error`. */
export interface TaskAttempt {
  done: Promise<TaskAttemptOutcome>;
  abort(error: TaskError): void;
}

/** A failure as the queue records it: the error's own `code` when it has one. */
export function toTaskError(error: unknown): TaskError {
  const transient =
    error instanceof RetryLaterError ||
    (typeof error === 'object' && error !== null && (error as { transient?: unknown }).transient === true);
  return {
    code: error instanceof RuntimeError ? error.code : 'error',
    message: errorMessage(error),
    transient,
  };
}

/**
 * Runs `executor` on `task` with a time limit on `clock`: when it passes, the signal is aborted
 * and the attempt ends at once as a transient `timeout` with the partials reported so far (what
 * the executor does after that is ignored, so it must honour its signal).
 *
 * @example
 * const attempt = runTaskAttempt({ task, attempt: 1, executor, clock, timeLimitMs: 30_000, dependencyResults: {} });
 * const outcome = await attempt.done;
 */
export function runTaskAttempt(options: {
  task: TaskView;
  attempt: number;
  executor: TaskExecutor;
  clock: ServiceClock;
  timeLimitMs: number;
  dependencyResults: Readonly<Record<string, unknown>>;
}): TaskAttempt {
  const { task, attempt, executor, clock, timeLimitMs } = options;
  const controller = new AbortController();
  const partials: unknown[] = [];
  let settled = false;
  let finish!: (outcome: TaskAttemptOutcome) => void;
  const done = new Promise<TaskAttemptOutcome>((resolve) => (finish = resolve));
  const end = (outcome: TaskAttemptOutcome): void => {
    if (settled) return;
    settled = true;
    clock.clearTimeout(timer);
    finish(outcome);
  };
  const abort = (error: TaskError): void => {
    if (settled) return;
    controller.abort(new RuntimeError(error.code, error.message));
    end({ ok: false, error, partials: [...partials] });
  };
  const timer = clock.setTimeout(
    () =>
      abort({
        code: 'timeout',
        message:
          `Task ${task.task_id} (${task.agent_type}) ran past its time limit of ${timeLimitMs} ms and was interrupted, ` +
          `keeping ${partials.length} partial result(s). Raise its time_limit_ms, or the agent type's timeLimitMs, if it needs longer.`,
        transient: true,
      }),
    timeLimitMs,
  );
  const context: TaskExecutionContext = {
    signal: controller.signal,
    reportPartial: (value) => {
      if (!settled) partials.push(value);
    },
    attempt,
    dependencyResults: options.dependencyResults,
  };
  let running: Promise<unknown>;
  try {
    running = Promise.resolve(executor(task, context));
  } catch (error) {
    running = Promise.reject(error);
  }
  running.then(
    (result) => end({ ok: true, result }),
    (error: unknown) => end({ ok: false, error: toTaskError(error), partials: [...partials] }),
  );
  return { done, abort };
}
