import type { CoscientistMessage } from '../../protocol/coscientist/message.ts';

/** When a task was assigned to its agent and when its agent reported it finished (ISO times). */
export interface TaskTimes {
  assigned_at?: string;
  finished_at?: string;
}

/**
 * Each task's times, read from the goal's routed messages: its first `task_assignment` and its
 * last `task_result`, as their headers say. The messages are journaled (a message sent again
 * after a restart keeps its id and is not journaled twice), so the times survive a restart:
 * a goal reopened reads them back with its journal, then adds each message it routes.
 *
 * @example
 * const times = new TaskTimesBook(); times.add(message); times.of('i1-gen')?.assigned_at;
 */
export class TaskTimesBook {
  readonly #times = new Map<string, TaskTimes>();

  /** Notes a routed (or journaled) message; any other message is ignored. */
  add(message: CoscientistMessage): void {
    const taskId = message.payload.metadata?.task_id;
    const type = message.header.message_type;
    if (!taskId || (type !== 'task_assignment' && type !== 'task_result')) return;
    const entry = this.#times.get(taskId) ?? {};
    if (type === 'task_assignment') entry.assigned_at ??= message.header.timestamp;
    else entry.finished_at = message.header.timestamp;
    this.#times.set(taskId, entry);
  }

  of(taskId: string): TaskTimes | undefined {
    return this.#times.get(taskId);
  }
}
