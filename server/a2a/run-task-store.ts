import type { Artifact, Message, Task, TaskStatus } from '@a2a-js/sdk';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import { UnsupportedOperationError } from '@a2a-js/sdk/errors';
import type { Collection, Store } from '../../actors/runtime/store.ts';
import { FINAL_STATES, type A2aMapping, type A2aView } from './a2a-mapping.ts';
import { fromArtifact, fromTaskStatus, taskStateOf, toArtifact, toTaskStatus } from './a2a-wire.ts';

/**
 * What the runtime keeps of an A2A task: whose it is, the system's handle on its work and the
 * messages it was sent. Its state and artifacts are read from the system until it is final (`last`
 * is the state it was last saved with, for a system that no longer holds the work: a finished
 * trainer turn); a final `last` is the task for good (A2A terminal states change no more).
 */
export interface TaskLink {
  taskId: string;
  owner: string;
  contextId: string;
  /** The system's handle (`A2aMapping.start`); absent until the work started. */
  ref?: string;
  history: Message[];
  last?: { status: TaskStatus | undefined; artifacts: Artifact[] };
}

/** The task's final view, once it was saved final. */
function finalOf(link: TaskLink): A2aView | undefined {
  const status = fromTaskStatus(link.last?.status);
  if (!link.last || !FINAL_STATES.has(status.state)) return undefined;
  return { ...status, artifacts: link.last.artifacts.map(fromArtifact) };
}

/** The user a call is authenticated as (the JWT's `sub`); '' for none. */
export function ownerOf(context: ServerCallContext): string {
  return context.user?.isAuthenticated ? context.user.userName : '';
}

/**
 * The SDK's task store as a view over a system: a task's link is stored (`a2a/<system>/tasks`),
 * its state and artifacts come from the system's own records (the run host, the journal), so a
 * task reads the same after a restart. Another user's task reads as missing.
 *
 * @example
 * const tasks = new RunTaskStore(store, 'nutrition', mapping);
 * await tasks.load(taskId, context); // undefined when missing or another user's
 */
export class RunTaskStore implements TaskStore {
  readonly links: Collection<TaskLink>;

  constructor(
    store: Store,
    system: string,
    private readonly mapping: A2aMapping,
  ) {
    this.links = store.collection<TaskLink>(`a2a/${system}/tasks`);
  }

  /** The link of a task the caller owns. */
  async linkOf(taskId: string, context: ServerCallContext): Promise<TaskLink | undefined> {
    const link = await this.links.get(taskId).catch(() => undefined);
    return link && link.owner === ownerOf(context) ? link : undefined;
  }

  /**
   * The task's view: once the store has seen it final, that final state and its artifacts for
   * good (a `completed` org project amended later reads `working` again over HTTP, never here);
   * until then the system's view of its work, if it still holds it (final: kept at once).
   */
  async viewOf(link: TaskLink): Promise<A2aView | undefined> {
    const kept = finalOf(link);
    if (kept) return kept;
    if (link.ref === undefined) return undefined;
    const view = await this.mapping.view(link.owner, link.ref).catch(() => undefined);
    if (view) await this.keepFinal(link, view);
    return view;
  }

  /**
   * Keeps a final view of the system's as the task's `last`, for good (a task already final keeps
   * its own), the moment A2A sees the task reach it: a subscription following its work, or a read.
   * A message's stream needs no call: the SDK saves each event it publishes, the final one too.
   */
  async keepFinal(link: TaskLink, view: A2aView): Promise<void> {
    if (!FINAL_STATES.has(view.state)) return;
    const status = toTaskStatus(view, link.taskId, link.contextId, new Date().toISOString());
    const last = { status, artifacts: view.artifacts.map(toArtifact) };
    await this.links.update(link.taskId, (now) => (now && !finalOf(now) ? { ...now, last } : (now ?? link)));
  }

  /**
   * Tasks whose events are being published: they read as saved so far (`last`), so that a stream's
   * first task event does not run ahead of the events after it (the executor publishes faster than
   * the SDK's handler saves). A task leaves once its final or input-required status is saved.
   */
  readonly following = new Set<string>();

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const link = await this.linkOf(taskId, context);
    if (!link) return undefined;
    const view = this.following.has(taskId) && !finalOf(link) ? undefined : await this.viewOf(link);
    const status = view ? toTaskStatus(view, taskId, link.contextId) : link.last?.status;
    return {
      id: taskId,
      contextId: link.contextId,
      status: status ?? { state: taskStateOf('submitted'), message: undefined, timestamp: undefined },
      artifacts: view ? view.artifacts.map(toArtifact) : (link.last?.artifacts ?? []),
      history: structuredClone(link.history),
      metadata: undefined,
    };
  }

  async save(task: Task, context: ServerCallContext): Promise<void> {
    const owner = ownerOf(context);
    const { state } = fromTaskStatus(task.status);
    await this.links.update(task.id, (link) => {
      // A task the store has seen final stays so (a stream's late save of an earlier event is dropped).
      if ((link && link.owner !== owner) || (link && finalOf(link) && !FINAL_STATES.has(state))) return link;
      return {
        taskId: task.id,
        owner,
        contextId: link?.contextId ?? task.contextId,
        ...(link?.ref !== undefined ? { ref: link.ref } : {}),
        history: task.history ?? [],
        last: { status: task.status, artifacts: task.artifacts ?? [] },
      };
    });
    if (FINAL_STATES.has(state) || state === 'input-required') this.following.delete(task.id);
  }

  /** Records the system's handle on a task's work (and its context, the run or session). */
  async attach(taskId: string, owner: string, ref: string, contextId: string): Promise<void> {
    await this.links.update(taskId, (link) => ({
      taskId,
      owner,
      contextId,
      ref,
      history: link?.history ?? [],
      ...(link?.last ? { last: link.last } : {}),
    }));
    for (const listener of this.attached.get(taskId) ?? []) listener();
  }

  private readonly attached = new Map<string, Set<() => void>>();

  /**
   * Calls `onAttach` each time the task's work gets a handle (a reply started a new trainer turn),
   * so a follower moves to the work that now carries the task; returns how to stop.
   */
  watchRef(taskId: string, onAttach: () => void): () => void {
    const listeners = this.attached.get(taskId) ?? new Set();
    this.attached.set(taskId, listeners.add(onAttach));
    return () => {
      listeners.delete(onAttach);
      if (!listeners.size && this.attached.get(taskId) === listeners) this.attached.delete(taskId);
    };
  }

  async list(): Promise<never> {
    throw new UnsupportedOperationError('ListTasks is not offered: read each task by its id (GetTask).');
  }
}
