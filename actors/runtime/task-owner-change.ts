import { ConflictError, ValidationError } from '../../protocol/runtime/runtime-error.ts';
import type { TaskView } from '../../protocol/runtime/task-spec.ts';
import type { TaskQueueRecord } from './task-book.ts';

/** What a task's owner may decide (spec 003, Task Failure: retry, reassign, or give up). */
export type OwnerChange =
  { kind: 'retry' } | { kind: 'reassign'; agent_type: string } | { kind: 'fail'; reason: string };

/**
 * The record of an owner's change to `task`, or the error that says why it is not allowed: only
 * a failed task is retried (a blocked one names the task to retry instead); a task that is
 * running or completed is neither reassigned nor failed; a reassignment names a declared type.
 *
 * @example
 * const record = ownerChangeRecord(view, { kind: 'reassign', agent_type: 'reviewer' }, ['reviewer']);
 */
export function ownerChangeRecord(task: TaskView, change: OwnerChange, agentTypes: readonly string[]): TaskQueueRecord {
  const { task_id, status } = task;
  if (change.kind === 'retry') {
    if (status !== 'failed') {
      const hint = status === 'blocked' ? ` Retry the failed task it waits on, ${task.blocked_by}.` : '';
      throw new ConflictError(
        'task_not_failed',
        `Task ${task_id} is ${status}; only a failed task can be retried.${hint}`,
      );
    }
    return { t: 'retried', task_id };
  }
  if (change.kind === 'reassign' && !agentTypes.includes(change.agent_type)) {
    throw new ValidationError(
      `Agent type ${change.agent_type} has no workers: reassign to one of ${agentTypes.join(', ')}.`,
      [{ path: 'agent_type', message: 'unknown agent type' }],
      'unknown_agent_type',
    );
  }
  if (status === 'running' || status === 'completed') {
    const verb = change.kind === 'reassign' ? 'reassigned' : 'failed';
    throw new ConflictError(
      `task_${status}`,
      `Task ${task_id} is ${status}, so it cannot be ${verb}` +
        (status === 'running' ? ': wait for its attempt to end (its time limit bounds it).' : '.'),
    );
  }
  return change.kind === 'reassign'
    ? { t: 'reassigned', task_id, agent_type: change.agent_type }
    : {
        t: 'failed',
        task_id,
        error: { code: 'owner', message: change.reason, transient: false },
        partials: [...task.partials],
      };
}
