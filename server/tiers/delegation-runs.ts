import { createActor, type Actor, type InspectionEvent, type StateValue } from 'xstate';
import { delegationMachine } from '../../machines/tiers/delegation.ts';
import { inspectedRunSource } from '../viz/inspected-run-source.ts';
import type { RunInspectors, RunListing, RunSource } from '../viz/run-sources.ts';
import type { DelegationView, TaskEvent } from './tiers-service-api.ts';
import type { TiersService } from './tiers-service-api.ts';

type DelegationActor = Actor<typeof delegationMachine>;

/**
 * Each delegation of a live task as a running `delegation` statechart, for the visualizer: an
 * actor per delegation message, driven by the task's live events (`working` once its target took
 * it, then its terminal status), whose inspection events feed the live view under the
 * delegation's message id. A task's actors go when it settles; its delegations are then read
 * from its journals. After a restart an actor starts again at `pending` and takes the next event
 * from there (a `working` one goes straight to its terminal status: a transition the chart has).
 */
export class DelegationRuns {
  readonly inspectors: RunInspectors = new Set();
  private readonly actors = new Map<string, { taskId: string; actor: DelegationActor }>();

  /** Takes a task's live event (`TaskEvents.tap`). */
  hear = (taskId: string, event: TaskEvent): void => {
    if (event.type === 'settled') return this.drop(taskId);
    if (event.type !== 'status') return;
    const { message_id: id, status } = event.data;
    if (status === 'pending') return;
    this.actorOf(taskId, id).send({ type: status === 'working' ? 'delegation.started' : `delegation.${status}` });
  };

  /** The delegation's state while its task is live; undefined once it settled (or before its first event). */
  current(id: string): StateValue | undefined {
    return this.actors.get(id)?.actor.getSnapshot().value;
  }

  private actorOf(taskId: string, id: string): DelegationActor {
    const known = this.actors.get(id);
    if (known) return known.actor;
    const inspect = (event: InspectionEvent) => this.inspectors.forEach((inspector) => inspector(id, event));
    const actor = createActor(delegationMachine, { id: `delegation-${id}`, inspect }).start();
    this.actors.set(id, { taskId, actor });
    return actor;
  }

  private drop(taskId: string): void {
    for (const [id, { taskId: owner, actor }] of this.actors)
      if (owner === taskId) {
        actor.stop();
        this.actors.delete(id);
      }
  }

  close(): void {
    for (const { actor } of this.actors.values()) actor.stop();
    this.actors.clear();
  }
}

const flat = (nodes: readonly DelegationView[]): DelegationView[] => nodes.flatMap((n) => [n, ...flat(n.children)]);

/** How the list names a delegation: `ROUTING_DISPATCHER → SPECIALIZED_FLEET (js-solver)`. */
const labelOf = (d: DelegationView) => `${d.source_tier} → ${d.target_tier}${d.specialist ? ` (${d.specialist})` : ''}`;

/**
 * The visualizer's source for the `delegation` machine: a run is one delegation message (its id),
 * watched by the owner of its task; the list holds every delegation of the user's tasks that
 * are working, grouped by task.
 *
 * @example
 * runSources: [delegationRunSource(service, runs)]
 */
export function delegationRunSource(
  service: Pick<TiersService, 'get' | 'list'> & {
    taskOf(id: string): string | undefined | Promise<string | undefined>;
    owns(user: string, taskId: string): Promise<boolean>;
  },
  runs: DelegationRuns,
): RunSource {
  const ownedTask = async (userId: string, id: string) => {
    const taskId = await service.taskOf(id);
    return taskId !== undefined && (await service.owns(userId, taskId)) ? taskId : undefined;
  };
  return inspectedRunSource({
    machine: delegationMachine,
    inspectors: runs.inspectors,
    owns: async (userId, id) => (await ownedTask(userId, id)) !== undefined,
    current: (id) => runs.current(id),
    async stored(id, userId) {
      const taskId = await ownedTask(userId, id);
      const view = taskId === undefined ? undefined : await service.get(userId, taskId);
      return view && flat(view.tree).find((d) => d.message_id === id)?.status;
    },
    async list(userId) {
      const listed: RunListing[] = [];
      for (const task of await service.list(userId)) {
        if (task.status !== 'working') continue;
        const view = await service.get(userId, task.task_id);
        for (const d of flat(view?.tree ?? []))
          listed.push({ id: d.message_id, label: labelOf(d), state: d.status, group: task.task_id });
      }
      return listed;
    },
  });
}
