import { z } from 'zod';

/*
 * The task queue's data (spec 003, Pattern 1): what a submitter writes, and what it reads back.
 * Agent types are plain strings that the system declares when it opens its queue.
 */

/** The runtime's priority scale (DESIGN.md): 0 = critical ... 4 = backlog. */
export const TaskPrioritySchema = z.number().int().min(0).max(4);

/** One task as submitted: 003's `task_id, agent_type, input_data, priority, dependencies`. */
export const TaskSpecSchema = z.strictObject({
  task_id: z.string().min(1),
  agent_type: z.string().min(1),
  input_data: z.unknown(),
  priority: TaskPrioritySchema.default(2),
  /** Tasks that must complete before this one starts: known ones, or others of the same batch. */
  dependencies: z.array(z.string().min(1)).default([]),
  /** Overrides the agent type's time limit for this task. */
  time_limit_ms: z.number().int().positive().optional(),
});
export type TaskSpec = z.infer<typeof TaskSpecSchema>;
/** What a caller may pass: `priority` and `dependencies` have defaults. */
export type TaskSpecInput = z.input<typeof TaskSpecSchema>;

/**
 * Where a task is: `waiting` for dependencies, `ready` in its agent type's line, `running`,
 * `retrying` (a transient failure, until its backoff ends), `blocked` (a dependency failed: never
 * started until the owner retries, reassigns or fails that dependency, or fails this task),
 * `completed` or `failed` (both final until the owner retries or reassigns a failed task).
 */
export type TaskStatus = 'waiting' | 'ready' | 'running' | 'retrying' | 'blocked' | 'completed' | 'failed';

/** Why an attempt or a task failed; `code` is `timeout`, `interrupted`, `error`, `owner` or the error's own. */
export const TaskErrorSchema = z.strictObject({
  code: z.string(),
  message: z.string(),
  transient: z.boolean(),
});
export type TaskError = z.infer<typeof TaskErrorSchema>;

/** A task as the queue shows it (a frozen copy). */
export interface TaskView extends TaskSpec {
  status: TaskStatus;
  /** Attempts started so far (an attempt cut by a restart counts). */
  attempts: number;
  result?: unknown;
  error?: TaskError;
  /** What the last ended attempt reported before it ended (kept on timeout and failure). */
  partials: readonly unknown[];
  /** For `blocked`: the failed task at the root of the block. */
  blocked_by?: string;
  /** For `retrying`: when the next attempt becomes ready (clock time, ms). */
  retry_at?: number;
}
