import { z } from 'zod';
import { TaskErrorSchema, TaskSpecSchema } from '../../protocol/runtime/task-spec.ts';
import type { TaskQueueRecord } from './task-book.ts';
import type { TaskGenerationRecord } from './task-queue-log.ts';

const TaskStatusSchema = z.enum(['waiting', 'ready', 'running', 'retrying', 'blocked', 'completed', 'failed']);
const taskId = z.string().min(1);

/** One task inside a `snapshot` record (see `TaskSnapshot`). */
const TaskSnapshotSchema = TaskSpecSchema.extend({
  status: TaskStatusSchema,
  attempts: z.number().int().nonnegative(),
  result: z.unknown().optional(),
  error: TaskErrorSchema.optional(),
  partials: z.array(z.unknown()),
  blocked_by: z.string().optional(),
  retry_at: z.number().optional(),
  ready_seq: z.number().optional(),
});

/**
 * Every record a task queue's generation partition may hold, checked when the queue is opened: a
 * line that is not one of these (an unknown `t`, a missing field) stops the opening, naming the
 * partition and seq.
 */
export const TaskQueueRecordSchema = z.discriminatedUnion('t', [
  z.strictObject({ t: z.literal('submitted'), tasks: z.array(TaskSpecSchema) }),
  z.strictObject({ t: z.literal('started'), task_id: taskId, attempt: z.number().int().positive() }),
  z.strictObject({ t: z.literal('completed'), task_id: taskId, result: z.unknown() }),
  z.strictObject({
    t: z.literal('attempt_failed'),
    task_id: taskId,
    error: TaskErrorSchema,
    partials: z.array(z.unknown()),
    retry_at: z.number(),
  }),
  z.strictObject({ t: z.literal('failed'), task_id: taskId, error: TaskErrorSchema, partials: z.array(z.unknown()) }),
  z.strictObject({ t: z.literal('retried'), task_id: taskId }),
  z.strictObject({ t: z.literal('reassigned'), task_id: taskId, agent_type: z.string().min(1) }),
  z.strictObject({ t: z.literal('snapshot'), tasks: z.array(TaskSnapshotSchema) }),
]) satisfies z.ZodType<TaskQueueRecord>;

/** The only record of a task queue's index partition: generation `gen` holds the queue from now on. */
export const TaskGenerationRecordSchema = z.strictObject({
  t: z.literal('generation'),
  gen: z.number().int().positive(),
}) satisfies z.ZodType<TaskGenerationRecord>;
