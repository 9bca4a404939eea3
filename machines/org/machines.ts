/** The org system's statecharts, for the visualizer. */
import { machineEntry, type MachineEntry } from '../runtime/machine-entry.ts';
import { handoffMachine } from './handoff.ts';

export const MACHINES: readonly MachineEntry[] = [
  machineEntry(handoffMachine, {
    title: 'Handoff (spec 004)',
    summary:
      'One deliverable from one agent to another: notified, acknowledged by the runtime, validated, accepted or ' +
      'rejected; fixed and re-initiated once; the second rejection escalates.',
    file: 'machines/org/handoff.ts',
    exportName: 'handoffMachine',
  }),
];
