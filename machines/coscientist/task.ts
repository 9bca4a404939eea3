/**
 * The lifecycle of one co-scientist task (issue 13), drawn from `TASK_TRANSITIONS`: it accepts
 * the task queue's changes as `task.*` events and emits nothing. The SUPERVISOR's views read a
 * task's state through {@link taskStateAfter}.
 */
import { setup, transition, type SnapshotFrom } from 'xstate';
import type { TaskEventType, TaskState } from '../../protocol/coscientist/task-transitions.ts';

type TaskLifecycleEvent = { type: TaskEventType };

export const taskMachine = setup({ types: { events: {} as TaskLifecycleEvent } }).createMachine({
  id: 'task',
  initial: 'queued',
  states: {
    queued: {
      description: 'Written to the task queue (on disk).',
      on: {
        'task.accepted': { target: 'ready' },
        'task.waiting': { target: 'waiting' },
        'task.cancelled': { target: 'cancelled' },
      },
    },
    waiting: {
      description: 'Blocked on its dependencies: starts once every one is done.',
      on: {
        'task.dependencies_met': { target: 'ready' },
        'task.dependency_failed': { target: 'blocked' },
        'task.cancelled': { target: 'cancelled' },
      },
    },
    blocked: {
      description: 'A dependency failed: never starts until the SUPERVISOR retries, reassigns or cancels.',
      on: { 'task.unblocked': { target: 'waiting' }, 'task.cancelled': { target: 'cancelled' } },
    },
    ready: {
      description: 'In its agent type line, waiting for a free worker.',
      on: { 'task.started': { target: 'running' }, 'task.cancelled': { target: 'cancelled' } },
    },
    running: {
      description: 'A worker instantiated its agent, which executes under a time limit and a lease.',
      on: {
        'task.completed': { target: 'done' },
        'task.failed': { target: 'failed' },
        'task.timed_out': { target: 'timed_out' },
        'task.retrying': { target: 'ready' },
      },
    },
    done: { description: 'Its results are in context memory.' },
    failed: {
      description: 'Its dependents are blocked; the SUPERVISOR retries, reassigns or escalates to the scientist.',
      on: { 'task.retried': { target: 'ready' }, 'task.cancelled': { target: 'cancelled' } },
    },
    timed_out: {
      description: 'Interrupted: what it finished is kept as partial entries, consumed only once promoted.',
      on: { 'task.retried': { target: 'ready' }, 'task.cancelled': { target: 'cancelled' } },
    },
    cancelled: { description: 'The goal stopped before the task ran.' },
  },
});

/** The machine's snapshot in `state`. */
export function taskSnapshotOf(state: TaskState): SnapshotFrom<typeof taskMachine> {
  return taskMachine.resolveState({ value: state, context: undefined as never });
}

/**
 * The state after `event`, or undefined when the machine does not accept it there.
 *
 * @example
 * taskStateAfter('running', 'task.timed_out'); // 'timed_out'
 */
export function taskStateAfter(state: TaskState, event: TaskEventType): TaskState | undefined {
  const snapshot = taskSnapshotOf(state);
  if (!snapshot.can({ type: event })) return undefined;
  return transition(taskMachine, snapshot, { type: event })[0].value as TaskState;
}
