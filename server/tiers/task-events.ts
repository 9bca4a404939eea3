import type { TiersEnvelope } from '../../protocol/tiers/envelope.ts';
import type { DelegationView, TaskEvent, TaskStatus } from './tiers-service-api.ts';

type Listener = (event: TaskEvent) => void;

/**
 * The live events of every task, fanned out to its watchers: each envelope the task's run
 * routed, each delegation's status change, and the task settling. A stream replays the past
 * first (its journals), then follows live ones, and ends after `settled` when asked.
 */
export class TaskEvents {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly taps = new Set<(taskId: string, event: TaskEvent) => void>();

  /** Hears every live event of every task (the visualizer's delegation runs) until the returned function is called. */
  tap(observer: (taskId: string, event: TaskEvent) => void): () => void {
    this.taps.add(observer);
    return () => this.taps.delete(observer);
  }

  message(taskId: string, envelope: TiersEnvelope): void {
    this.emit(taskId, { type: 'message', data: envelope });
    if ('task_type' in envelope.payload)
      this.emit(taskId, { type: 'status', data: { message_id: envelope.id, status: 'working' } });
  }

  status(taskId: string, messageId: string, status: DelegationView['status'] | 'open'): void {
    if (status !== 'open') this.emit(taskId, { type: 'status', data: { message_id: messageId, status } });
  }

  settled(taskId: string, status: TaskStatus): void {
    this.emit(taskId, { type: 'settled', data: { task_id: taskId, status } });
  }

  /** Any event as it is (a task followed from its state: what it read new). */
  event(taskId: string, event: TaskEvent): void {
    this.emit(taskId, event);
  }

  private emit(taskId: string, event: TaskEvent): void {
    for (const tap of this.taps) tap(taskId, event);
    for (const listener of this.listeners.get(taskId) ?? []) listener(event);
  }

  /**
   * Past events (from `replay`: undefined when the task is not the caller's), then live ones;
   * with `untilSettled`, it ends after the task's `settled` (at once for a task already settled).
   */
  stream(
    taskId: string,
    options: { untilSettled: boolean; signal: AbortSignal },
    replay: () => Promise<{ events: TaskEvent[]; settled: boolean } | undefined>,
  ): AsyncIterable<TaskEvent> | undefined {
    const listeners = this.listeners;
    return {
      async *[Symbol.asyncIterator]() {
        const queue: TaskEvent[] = [];
        let wake: (() => void) | undefined;
        const listener: Listener = (event) => {
          queue.push(event);
          wake?.();
        };
        let set = listeners.get(taskId);
        if (!set) listeners.set(taskId, (set = new Set()));
        set.add(listener);
        const onAbort = () => wake?.();
        options.signal.addEventListener('abort', onAbort);
        try {
          const past = await replay();
          if (!past) return;
          const seen = new Set(past.events.map((e) => JSON.stringify(e)));
          for (const event of past.events) yield event;
          if (past.settled && options.untilSettled) return;
          for (;;) {
            while (queue.length > 0) {
              const event = queue.shift()!;
              if (event.type !== 'settled' && seen.has(JSON.stringify(event))) continue;
              yield event;
              if (event.type === 'settled' && options.untilSettled) return;
            }
            if (options.signal.aborted) return;
            await new Promise<void>((resolve) => (wake = resolve));
            wake = undefined;
          }
        } finally {
          options.signal.removeEventListener('abort', onAbort);
          set.delete(listener);
          if (set.size === 0) listeners.delete(taskId);
        }
      },
    };
  }

  close(): void {
    this.listeners.clear();
    this.taps.clear();
  }
}
