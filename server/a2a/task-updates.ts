import type { TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import {
  FINAL_STATES,
  type A2aArtifact,
  type A2aMapping,
  type A2aState,
  type A2aStatus,
  type A2aView,
} from './a2a-mapping.ts';
import { toArtifact, toTaskStatus } from './a2a-wire.ts';

/** One update of a task as a stream sends it. */
export type TaskUpdate =
  { kind: 'statusUpdate'; data: TaskStatusUpdateEvent } | { kind: 'artifactUpdate'; data: TaskArtifactUpdateEvent };

/** Where a follower starts: what the client was already shown of the task. */
export interface TaskShown {
  state: A2aState;
  message?: string | undefined;
  /** The artifacts it holds (by name), when the mapping has no `produced`. */
  artifacts: readonly A2aArtifact[];
  /** The `recordId`s of the `produced` it holds (read before the task was shown), when the mapping has one. */
  produced: readonly string[];
}

export interface FollowOptions {
  owner: string;
  ref: string;
  taskId: string;
  contextId: string;
  shown: TaskShown;
  /** `input`: end at `input-required` too (a message's stream); `final`: only at a final state (a subscription). */
  until: 'input' | 'final';
  /** What to do when the system no longer holds the work: report it `failed`, or just `end`. */
  whenGone: 'fail' | 'end';
  /**
   * Where the task's work is now, when a reply may move it under a new handle (a trainer turn):
   * `current` reads the handle, `watch` calls back when it changes. The follow then moves to it.
   */
  relink?: { current(): Promise<string | undefined>; watch(onChange: () => void): () => void } | undefined;
  /** Ends the follow (and lets go of the run) when the client left. */
  signal?: AbortSignal | undefined;
  /** Called with the system's view the moment it reads final, before anything of it is sent (to keep it). */
  onFinal?: ((view: A2aView) => Promise<void>) | undefined;
}

/** A level-triggered wake-up: `next` resolves at once when something changed since the last `clear`. */
function changes(signal: AbortSignal | undefined) {
  let dirty = false;
  let wake: (() => void) | undefined;
  signal?.addEventListener('abort', () => wake?.(), { once: true });
  return {
    notify: () => {
      dirty = true;
      wake?.();
    },
    clear: () => void (dirty = false),
    next: () => (dirty || signal?.aborted ? Promise.resolve() : new Promise<void>((resolve) => (wake = resolve))),
  };
}

/** A status update of a task. */
export function statusUpdate(taskId: string, contextId: string, status: A2aStatus): TaskUpdate {
  const data: TaskStatusUpdateEvent = {
    taskId,
    contextId,
    status: toTaskStatus(status, taskId, contextId, new Date().toISOString()),
    metadata: undefined,
  };
  return { kind: 'statusUpdate', data };
}

function artifactUpdate(taskId: string, contextId: string, artifact: A2aArtifact): TaskUpdate {
  const data: TaskArtifactUpdateEvent = {
    taskId,
    contextId,
    artifact: toArtifact(artifact),
    append: false,
    lastChunk: true,
    metadata: undefined,
  };
  return { kind: 'artifactUpdate', data };
}

const GONE: A2aView = { state: 'failed', message: 'The system no longer holds this work.', artifacts: [] };

/**
 * Follows a task's work through its system's mapping and yields each artifact and each change of
 * state the client was not shown yet, in the order the run made them, until the task is final
 * (or needs input, with `until: 'input'`). A mapping with `produced` has its artifacts replayed
 * one by one from the run's journal (each version of one); without, each new or changed artifact
 * of its view is sent. Used by a message's stream and by `SubscribeToTask`, which may come after
 * a restart: it reads only the system's view and journal, never what this process saw.
 *
 * @example
 * for await (const update of followTask(mapping, { owner, ref, taskId, contextId, shown, until: 'final', whenGone: 'end' }))
 *   yield update;
 */
export async function* followTask(mapping: A2aMapping, options: FollowOptions): AsyncGenerator<TaskUpdate> {
  const { owner, taskId, contextId, shown } = options;
  const { signal, relink } = options;
  const changed = changes(signal);
  const unwatch = relink?.watch(changed.notify) ?? (() => undefined);
  let ref = options.ref;
  let stop = await mapping.follow(owner, ref, changed.notify);
  const sent = new Map(shown.artifacts.map((a) => [a.name, JSON.stringify(a.data)]));
  const replayed = new Set(shown.produced);
  let last = { state: shown.state, message: shown.message };
  try {
    for (;;) {
      if (signal?.aborted) return;
      changed.clear();
      const now = relink && (await relink.current());
      if (now && now !== ref) {
        // A reply moved the task to new work: follow that from its start.
        stop();
        stop = () => undefined;
        ref = now;
        stop = await mapping.follow(owner, ref, changed.notify);
        replayed.clear();
      }
      // The view first: the journal read after it holds at least every artifact the view stands on.
      const found = await mapping.view(owner, ref);
      if (!found && options.whenGone === 'end') return;
      if (found && FINAL_STATES.has(found.state)) await options.onFinal?.(found);
      const view = found ?? GONE;
      const moved = last.state !== view.state || last.message !== view.message;
      // Work resumed (a reply, a confirmation): what it produced comes after `working`, even when
      // the run was already past it when read.
      if (moved && view.state !== 'working' && last.state === 'input-required' && view.state !== 'input-required') {
        last = { state: 'working', message: undefined };
        yield statusUpdate(taskId, contextId, last);
      }
      if (moved && view.state === 'working') {
        last = { state: view.state, message: view.message };
        yield statusUpdate(taskId, contextId, last);
      }
      if (mapping.produced) {
        // Matched by record, not position: one the system could not read before may come back.
        for (const artifact of await mapping.produced(owner, ref)) {
          if (replayed.has(artifact.recordId)) continue;
          replayed.add(artifact.recordId);
          yield artifactUpdate(taskId, contextId, artifact);
        }
      } else
        for (const artifact of view.artifacts) {
          const json = JSON.stringify(artifact.data);
          if (sent.get(artifact.name) === json) continue;
          sent.set(artifact.name, json);
          yield artifactUpdate(taskId, contextId, artifact);
        }
      if (last.state !== view.state || last.message !== view.message) {
        last = { state: view.state, message: view.message };
        yield statusUpdate(taskId, contextId, last);
      }
      if (FINAL_STATES.has(view.state) || (options.until === 'input' && view.state === 'input-required')) return;
      await changed.next();
    }
  } finally {
    unwatch();
    stop();
  }
}
