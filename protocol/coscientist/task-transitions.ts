import { z } from 'zod';

/**
 * A co-scientist task's states (issue 13): `queued` (submitted), `waiting` (blocked on its
 * dependencies), `blocked` (a dependency failed: it never starts until the SUPERVISOR retries,
 * reassigns or cancels), `ready` (in its agent type's line), `running`, `done`, `failed`,
 * `timed_out` (interrupted; its partial entries wait for the SUPERVISOR to promote them) and
 * `cancelled` (the goal stopped first).
 */
export const TaskStateSchema = z.enum([
  'queued',
  'waiting',
  'blocked',
  'ready',
  'running',
  'done',
  'failed',
  'timed_out',
  'cancelled',
]);
export type TaskState = z.infer<typeof TaskStateSchema>;

/** What moves a task (the task queue's records, as the SUPERVISOR sees them). */
export const TaskEventTypeSchema = z.enum([
  'task.accepted',
  'task.waiting',
  'task.dependencies_met',
  'task.dependency_failed',
  'task.unblocked',
  'task.started',
  'task.completed',
  'task.failed',
  'task.timed_out',
  'task.retrying',
  'task.retried',
  'task.cancelled',
]);
export type TaskEventType = z.infer<typeof TaskEventTypeSchema>;

/** One edge: in `from`, `event` leads to `to`. */
export interface TaskTransition {
  readonly from: TaskState;
  readonly event: TaskEventType;
  readonly to: TaskState;
}

/** The task lifecycle, edge by edge; `machines/coscientist/task.ts` is checked against it both ways. */
export const TASK_TRANSITIONS: readonly TaskTransition[] = Object.freeze([
  { from: 'queued', event: 'task.accepted', to: 'ready' },
  { from: 'queued', event: 'task.waiting', to: 'waiting' },
  { from: 'queued', event: 'task.cancelled', to: 'cancelled' },
  { from: 'waiting', event: 'task.dependencies_met', to: 'ready' },
  { from: 'waiting', event: 'task.dependency_failed', to: 'blocked' },
  { from: 'waiting', event: 'task.cancelled', to: 'cancelled' },
  { from: 'blocked', event: 'task.unblocked', to: 'waiting' },
  { from: 'blocked', event: 'task.cancelled', to: 'cancelled' },
  { from: 'ready', event: 'task.started', to: 'running' },
  { from: 'ready', event: 'task.cancelled', to: 'cancelled' },
  { from: 'running', event: 'task.completed', to: 'done' },
  { from: 'running', event: 'task.failed', to: 'failed' },
  { from: 'running', event: 'task.timed_out', to: 'timed_out' },
  { from: 'running', event: 'task.retrying', to: 'ready' },
  { from: 'failed', event: 'task.retried', to: 'ready' },
  { from: 'failed', event: 'task.cancelled', to: 'cancelled' },
  { from: 'timed_out', event: 'task.retried', to: 'ready' },
  { from: 'timed_out', event: 'task.cancelled', to: 'cancelled' },
]);
