import { createActor, SimulatedClock, type AnyActorRef } from 'xstate';
import { createMemoryJournal, type MemoryJournal } from '../../../actors/runtime/memory-journal.ts';
import { openSharedState } from '../../../actors/runtime/shared-state/open-shared-state.ts';
import { KnowledgeIds } from '../../../actors/org/knowledge-ids.ts';
import { ORG_STATE_SCHEMA } from '../../../actors/org/org-state-schema.ts';
import { offlineOrgBrains } from '../../../actors/org/offline-org-brains.ts';
import { openingTasks } from '../../../actors/org/project-tasks.ts';
import { OrgWorkspace } from '../../../actors/org/workspace.ts';
import type { AgentBrainLogic } from '../../../machines/runtime/agent.ts';
import { orgSystem, PROJECT_RUN } from '../../../machines/org/org-system.ts';
import { createSupervisorMachine, type SupervisorEmitted } from '../../../machines/runtime/supervisor.ts';
import { isRoutedRecord, type JournalRecord } from '../../../protocol/runtime/ack-record.ts';
import type { OrgAgent, OrgEnvelope } from '../../../protocol/org/envelope.ts';
import type { Prd } from '../../../protocol/org/prd.ts';

/** A small PRD: two features, each with acceptance criteria. */
export const SHOP_PRD: Prd = {
  title: 'Shop',
  features: [
    { id: 'cart', title: 'Shopping cart items', acceptance_criteria: ['Add an item', 'Remove an item'] },
    { id: 'checkout', title: 'Checkout payment', acceptance_criteria: ['Pay by card'] },
  ],
};

/**
 * One org project on a supervisor of the org system (offline brains), over memory journals and a
 * simulated clock: its workspace, what the supervisor emitted and journaled, and `settle()`, which
 * lets the agents work until nothing moves. `open()` loads the owner's knowledge ids (the
 * admission rule checks `knowledge_graph_refs` from then on).
 */
export function startOrgProject(
  options: {
    prd?: Prd;
    owner?: string;
    projectId?: string;
    brains?: Partial<Record<OrgAgent, AgentBrainLogic>>;
    stateJournal?: MemoryJournal<unknown>;
  } = {},
) {
  const clock = new SimulatedClock();
  clock.set(Date.parse('2026-03-02T09:00:00Z'));
  const journal = createMemoryJournal<JournalRecord>();
  const stateJournal = options.stateJournal ?? createMemoryJournal<unknown>();
  const projectId = options.projectId ?? 'p-1';
  const owner = options.owner ?? 'ada';
  const state = openSharedState({
    journal: stateJournal,
    schema: ORG_STATE_SCHEMA,
    scopes: { project: projectId, owner },
    clock,
  });
  const ws = new OrgWorkspace(state, projectId, 'sprint-1', owner, () => clock.now());
  const knowledge = new KnowledgeIds((of) =>
    openSharedState({ journal: stateJournal, schema: ORG_STATE_SCHEMA, scopes: { owner: of }, clock }),
  );
  const system = orgSystem({
    knowledge,
    brains: { ...offlineOrgBrains((id) => (id === projectId ? ws : undefined)), ...options.brains },
    acks: { backoff: { baseMs: 100, maxMs: 1_000 }, random: () => 0 },
  });
  const actor = createActor(createSupervisorMachine(system, { journal, now: () => clock.now() }), { input: {}, clock });
  const emitted: SupervisorEmitted[] = [];
  actor.on('*', (event) => emitted.push(event as SupervisorEmitted));
  actor.start();
  const child = (name: string) => (actor.getSnapshot().children as Record<string, AnyActorRef>)[name]!;
  const records = async () => (await journal.read(projectId)).map((entry) => entry.data);
  const messages = async () => (await records()).flatMap((r) => (isRoutedRecord(r) ? [r.envelope as OrgEnvelope] : []));
  /** Lets microtasks, journal writes and brains run until the journal stops growing. */
  const settle = async () => {
    let quiet = 0;
    let last = -1;
    while (quiet < 20) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      const length = (await journal.read(projectId)).length;
      quiet = length === last ? quiet + 1 : 0;
      last = length;
    }
  };
  const send = (envelopes: unknown[]) => child(PROJECT_RUN).send({ type: 'project.send', envelopes });
  const open = async (prd: Prd = options.prd ?? SHOP_PRD) => {
    await ws.put('user', 'prd', { version: 1, prd });
    await knowledge.load(projectId, owner);
    send(openingTasks({ projectId, sprintId: 'sprint-1', at: clock.now(), prdVersion: 1 }));
    await settle();
  };
  return {
    clock,
    journal,
    stateJournal,
    ws,
    knowledge,
    actor,
    emitted,
    child,
    records,
    messages,
    settle,
    send,
    open,
    projectId,
    owner,
  };
}
