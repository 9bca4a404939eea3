import type { TaskError } from '../../protocol/runtime/task-spec.ts';
import type { TaskBook, TaskQueueRecord } from './task-book.ts';
import type { TaskRetryPolicy } from './task-worker-pool.ts';

/**
 * What a failed attempt leads to: another attempt at `retryAt` when the failure is transient and
 * the policy has attempts left (`attempt_failed`), else the task fails (`failed`). Either way the
 * attempt's partial results are kept.
 *
 * @example
 * failureRecord({ task_id: 't1', attempt: 1, error, partials, policy, retryAt: now + delay });
 */
export function failureRecord(failure: {
  task_id: string;
  attempt: number;
  error: TaskError;
  partials: unknown[];
  policy: TaskRetryPolicy;
  retryAt: number;
}): Extract<TaskQueueRecord, { t: 'attempt_failed' | 'failed' }> {
  const { task_id, error, partials } = failure;
  return error.transient && failure.attempt < failure.policy.maxAttempts
    ? { t: 'attempt_failed', task_id, error, partials, retry_at: failure.retryAt }
    : { t: 'failed', task_id, error, partials };
}

/**
 * After a restart, for each task the book shows `running` (its attempt died with the process): an
 * `attempt_failed` ready again at `now` (the lost attempt counts), or `failed` with code
 * `interrupted` when it was the last attempt its agent type's policy allows.
 */
export function interruptedRecords(
  book: TaskBook,
  policyOf: (agentType: string) => TaskRetryPolicy,
  now: number,
): TaskQueueRecord[] {
  const records: TaskQueueRecord[] = [];
  for (const [id, status] of book.statuses()) {
    if (status !== 'running') continue;
    const task = book.peek(id)!;
    const error: TaskError = {
      code: 'interrupted',
      message: `Attempt ${task.attempts} of task ${id} was cut short when the process stopped.`,
      transient: true,
    };
    const policy = policyOf(task.agent_type);
    records.push(failureRecord({ task_id: id, attempt: task.attempts, error, partials: [], policy, retryAt: now }));
  }
  return records;
}
