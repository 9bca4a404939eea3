/**
 * The one list of the runtime's statecharts: the visualizer, its exports and their tests read
 * every machine from here, so a machine missing from this list fails its test.
 */
import type { AnyStateMachine } from 'xstate';
import { createMemoryJournal } from '../actors/runtime/memory-journal.ts';
import { offlineNutritionBrains } from '../actors/nutrition/offline-brains.ts';
import type { RoutedRecord } from '../protocol/runtime/routing.ts';
import { agentLoopMachine } from './trainer/agent-loop.ts';
import { agentMachine } from './runtime/agent.ts';
import { nutritionSystem } from './nutrition/nutrition-system.ts';
import { pipelineMachine } from './nutrition/pipeline.ts';
import { sessionMachine } from './trainer/session.ts';
import { createSupervisorMachine } from './runtime/supervisor.ts';

/** One registered machine: its URL name, what it is for, and where the code defines it. */
export interface MachineEntry {
  /** The name in `/viz/<name>` and `docs/machines/<name>.svg`: the machine's id. */
  name: string;
  title: string;
  summary: string;
  machine: AnyStateMachine;
  /** The module under `machines/` and the export that is (or creates) the machine. */
  source: { file: string; exportName: string };
}

function entry(machine: AnyStateMachine, title: string, summary: string, file: string, exportName: string): MachineEntry {
  return { name: machine.id, title, summary, machine, source: { file, exportName } };
}

/** The supervisor is a factory; it is drawn as the nutrition system's (its states do not depend on the system). */
const nutritionSupervisor = createSupervisorMachine(nutritionSystem({ brains: offlineNutritionBrains() }), {
  journal: createMemoryJournal<RoutedRecord>(),
});

/** Every machine in `machines/`, in the order the visualizer lists them. */
export const MACHINES: readonly MachineEntry[] = [
  entry(pipelineMachine, 'Nutrition pipeline', 'The orchestrator of spec 000 §1: reviews every report and moves through the nine pipeline states.', 'machines/nutrition/pipeline.ts', 'pipelineMachine'),
  entry(nutritionSupervisor, 'Supervisor', 'Routes every envelope of a system: validate, check the routing table, drop duplicates, journal, deliver.', 'machines/runtime/supervisor.ts', 'createSupervisorMachine'),
  entry(sessionMachine, 'Trainer session', 'The lifecycle of one trainer session (spec 001 §7.6): active until the agent loop ends it as completed or error.', 'machines/trainer/session.ts', 'sessionMachine'),
  entry(agentLoopMachine, 'Trainer agent loop', 'One trainer turn (spec 001 §3): context from the INITIALIZER, then a model call and one tool per iteration until a §3.2 stop.', 'machines/trainer/agent-loop.ts', 'agentLoopMachine'),
  entry(agentMachine, 'Agent worker', 'The generic worker of every agent: one request at a time, with timeout, one retry and cancel.', 'machines/runtime/agent.ts', 'agentMachine'),
];

/** The registered machine called `name`, if any. */
export function machineEntry(name: string): MachineEntry | undefined {
  return MACHINES.find((candidate) => candidate.name === name);
}
