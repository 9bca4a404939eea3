import type { TaskView } from '../../protocol/runtime/task-spec.ts';
import type { TaskQueueEvent } from './task-queue-options.ts';

/**
 * Who listens to a task queue: subscribers of its events, and callers waiting for a task to be
 * final (`settled`). A subscriber that throws is reported to `onError` and the others still hear
 * the event: a listener's bug must not stop the queue.
 */
export class TaskWatchers {
  readonly #listeners = new Set<(event: TaskQueueEvent) => void>();
  readonly #waiters = new Map<string, ((view: TaskView) => void)[]>();

  constructor(private readonly onError: (error: unknown) => void) {}

  /** Adds a subscriber; returns the unsubscribe. */
  subscribe(listener: (event: TaskQueueEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(event: TaskQueueEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.onError(error);
      }
    }
  }

  /** Resolves once {@link settle} is called for `taskId`. */
  wait(taskId: string): Promise<TaskView> {
    return new Promise((resolve) => {
      const list = this.#waiters.get(taskId) ?? [];
      list.push(resolve);
      this.#waiters.set(taskId, list);
    });
  }

  /** The task is final: its waiters get `view()` (computed only when someone waits). */
  settle(taskId: string, view: () => TaskView): void {
    const waiters = this.#waiters.get(taskId);
    if (!waiters) return;
    this.#waiters.delete(taskId);
    const final = view();
    for (const resolve of waiters) resolve(final);
  }
}
