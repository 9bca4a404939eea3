import { SimulatedClock } from 'xstate';
import { createMemoryJournal } from '../../actors/runtime/memory-journal.ts';
import type { Journal } from '../../actors/runtime/journal.ts';
import type { TaskExecutionContext } from '../../actors/runtime/task-attempt.ts';
import { openTaskQueue, type TaskQueueEvent, type TaskQueueOptions } from '../../actors/runtime/task-queue.ts';
import type { TaskLogRecord } from '../../actors/runtime/task-queue-log.ts';
import type { TaskView } from '../../protocol/runtime/task-spec.ts';

/** Lets promises and the memory journal's commits run (one macrotask turn; no time passes). */
export const settle = async (turns = 3): Promise<void> => {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
};

/**
 * Turns the event loop until `check` holds (a file journal's fsync takes real time, which a
 * simulated clock does not drive); fails after `turns` turns. No timer, so no test sleeps.
 */
export async function until(check: () => boolean, turns = 20_000): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (check()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`Condition still false after ${turns} event loop turns.`);
}

/** One call of a scripted executor: the test decides when and how it ends. */
export interface ScriptedCall {
  task: TaskView;
  context: TaskExecutionContext;
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
}

/** An executor whose every call waits for the test to end it; `calls` lists them in start order. */
export function scriptedExecutor(): {
  calls: ScriptedCall[];
  executor: TaskQueueOptions['workers'][string]['executor'];
} {
  const calls: ScriptedCall[] = [];
  return {
    calls,
    executor: (task, context) =>
      new Promise((resolve, reject) => {
        calls.push({ task, context, resolve, reject });
      }),
  };
}

/** A queue on a memory journal and a simulated clock, recording its events. */
export async function openTestQueue(
  options: Partial<TaskQueueOptions> & Pick<TaskQueueOptions, 'workers'>,
  journal: Journal<TaskLogRecord> = createMemoryJournal<TaskLogRecord>(),
) {
  const clock = (options.clock as SimulatedClock | undefined) ?? new SimulatedClock();
  const events: TaskQueueEvent[] = [];
  const queue = await openTaskQueue({ name: 'q', random: () => 0, ...options, journal, clock });
  queue.subscribe((event) => events.push(event));
  return { queue, clock, journal, events };
}

/** A transient error, as an executor throws one. */
export function transientError(message: string): Error & { transient: true } {
  return Object.assign(new Error(message), { transient: true as const });
}
