/** The co-scientist's statecharts, for the visualizer. */
import { machineEntry, type MachineEntry } from '../runtime/machine-entry.ts';
import { agentMailbox } from './agent-mailbox.ts';
import { researchMachine } from './research.ts';
import { taskMachine } from './task.ts';

export const MACHINES: readonly MachineEntry[] = [
  machineEntry(researchMachine, {
    title: 'Research goal',
    summary:
      "The SUPERVISOR's iteration of spec 003: generation, reflection, tournament, ranking, evolution, meta-review; escalation and stop.",
    file: 'machines/coscientist/research.ts',
    exportName: 'researchMachine',
  }),
  machineEntry(taskMachine, {
    title: 'Research task',
    summary:
      'One task of the queue (Pattern 1): waiting on dependencies, blocked by a failed one, running, done, failed, timed out with partials, cancelled.',
    file: 'machines/coscientist/task.ts',
    exportName: 'taskMachine',
  }),

  machineEntry(agentMailbox, {
    title: 'Co-scientist agent mailbox',
    summary: 'The address each co-scientist agent has in the supervisor: it takes and counts what is routed to it.',
    file: 'machines/coscientist/agent-mailbox.ts',
    exportName: 'agentMailbox',
  }),
];
