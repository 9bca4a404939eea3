import type { StreamResponse } from '@a2a-js/sdk';
import { TaskNotFoundError, UnsupportedOperationError } from '@a2a-js/sdk/errors';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { FINAL_STATES, type A2aMapping } from './a2a-mapping.ts';
import { fromArtifact, fromTaskStatus, toArtifact, toTaskStatus } from './a2a-wire.ts';
import { signalOf } from './call-signal.ts';
import type { RunTaskStore } from './run-task-store.ts';
import { followTask } from './task-updates.ts';

/**
 * `SubscribeToTask` (and v0.3 `tasks/resubscribe`) over a system: the task as it stands, then
 * each artifact and change of state of its run as the system's view and journal show them, until
 * the task is final, through whatever work carries it now (a reply to a trainer task starts a new
 * turn, and the subscription moves to it). It reads nothing this process kept of the task's earlier streams, so it
 * follows a task just as well after a restart, when the run was started by another process.
 * A final task cannot be subscribed to (read it with `GetTask`); a task whose work the system no
 * longer holds (a forgotten trainer turn) ends the stream after the snapshot.
 *
 * @example
 * override resubscribe(params, context) { return subscribeToTask(this.mapping, this.tasks, params.id, context); }
 */
export async function* subscribeToTask(
  mapping: A2aMapping,
  tasks: RunTaskStore,
  taskId: string,
  context: ServerCallContext,
): AsyncGenerator<StreamResponse> {
  const link = await tasks.linkOf(taskId, context);
  if (!link) throw new TaskNotFoundError(`Task not found: ${taskId}`);
  // Counted before the snapshot is read, so the snapshot holds at least these.
  const produced =
    link.ref === undefined ? [] : ((await mapping.produced?.(link.owner, link.ref).catch(() => undefined)) ?? []);
  const saved = await tasks.load(taskId, context);
  if (!saved) throw new TaskNotFoundError(`Task not found: ${taskId}`);
  // The system's view now, even while a stream of this task is still saving what it sent: the
  // artifacts counted above are in it.
  const view = await tasks.viewOf(link);
  const task = view
    ? {
        ...saved,
        status: toTaskStatus(view, taskId, link.contextId, new Date().toISOString()),
        artifacts: view.artifacts.map(toArtifact),
      }
    : saved;
  const status = fromTaskStatus(task.status);
  const { state } = status;
  if (FINAL_STATES.has(state))
    throw new UnsupportedOperationError(
      `Task ${taskId} is ${state} and changes no more: read it with GetTask; only a task under way can be subscribed to.`,
    );
  yield { payload: { $case: 'task', value: task } };
  if (link.ref === undefined) return;
  const shown = {
    ...status,
    artifacts: task.artifacts.map(fromArtifact),
    produced: produced.map((artifact) => artifact.recordId),
  };
  const updates = followTask(mapping, {
    owner: link.owner,
    ref: link.ref,
    taskId,
    contextId: link.contextId,
    shown,
    until: 'final',
    whenGone: 'end',
    relink: {
      current: async () => (await tasks.links.get(taskId).catch(() => undefined))?.ref,
      watch: (onChange) => tasks.watchRef(taskId, onChange),
    },
    signal: signalOf(context),
    // Kept as the task's final state when reached, even if nothing reads the task before the system moves on.
    onFinal: (view) => tasks.keepFinal(link, view),
  });
  for await (const update of updates)
    yield update.kind === 'statusUpdate'
      ? { payload: { $case: 'statusUpdate', value: update.data } }
      : { payload: { $case: 'artifactUpdate', value: update.data } };
}
