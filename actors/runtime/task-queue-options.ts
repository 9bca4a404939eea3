import type { TaskError } from '../../protocol/runtime/task-spec.ts';
import type { ServiceClock } from './clock.ts';
import type { Journal } from './journal.ts';
import type { TaskLogRecord } from './task-queue-log.ts';
import type { TaskWorkerConfig } from './task-worker-pool.ts';

/** What `openTaskQueue` needs; agent types are the keys of `workers`, declared by the system. */
export interface TaskQueueOptions {
  journal: Journal<TaskLogRecord>;
  /** The queue's name, and its journal partitions' prefix (one queue per run, project, ...). */
  name: string;
  workers: Readonly<Record<string, TaskWorkerConfig>>;
  clock?: ServiceClock;
  /** Unfinished tasks at most; beyond, `submit` answers `throttled` (10,000). */
  maxQueued?: number;
  /** The `retryAfterMs` of a `throttled` answer (1,000). */
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
  | { status: 'accepted'; taskIds: string[] }
  | { status: 'throttled'; retryAfterMs: number; queued: number; maxQueued: number };

/** What the queue tells its subscribers. */
export type TaskQueueEvent =
  | { type: 'task.started'; taskId: string; agentType: string; attempt: number; waitedMs: number }
  | { type: 'task.completed'; taskId: string }
  | { type: 'task.retrying'; taskId: string; retryAt: number; error: TaskError }
  | { type: 'task.failed'; taskId: string; error: TaskError };
