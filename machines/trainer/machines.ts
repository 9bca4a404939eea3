/** The trainer system's statecharts, for the visualizer. */
import { machineEntry, type MachineEntry } from '../runtime/machine-entry.ts';
import { agentLoopMachine } from './agent-loop.ts';
import { sessionMachine } from './session.ts';

export const MACHINES: readonly MachineEntry[] = [
  machineEntry(sessionMachine, {
    title: 'Trainer session',
    summary:
      'The lifecycle of one trainer session (spec 001 §7.6): active until the agent loop ends it as completed or error.',
    file: 'machines/trainer/session.ts',
    exportName: 'sessionMachine',
  }),
  machineEntry(agentLoopMachine, {
    title: 'Trainer agent loop',
    summary:
      'One trainer turn (spec 001 §3): context from the INITIALIZER, then a model call and one tool per iteration until a §3.2 stop.',
    file: 'machines/trainer/agent-loop.ts',
    exportName: 'agentLoopMachine',
  }),
];
