/** The org system's statecharts, for the visualizer. */
import { machineEntry, type MachineEntry } from '../runtime/machine-entry.ts';
import { handoffMachine } from './handoff.ts';
import { projectRunMachine } from './project-run.ts';

export const MACHINES: readonly MachineEntry[] = [
  machineEntry(handoffMachine, {
    title: 'Handoff (spec 004)',
    summary:
      'One deliverable from one agent to another: notified, acknowledged by the runtime, validated, accepted or ' +
      'rejected; fixed and re-initiated once; the second rejection escalates.',
    file: 'machines/org/handoff.ts',
    exportName: 'handoffMachine',
  }),
  machineEntry(projectRunMachine, {
    title: 'Project run (spec 004)',
    summary:
      "The run actor of one org project: hands the supervisor what the user's routes send into the project " +
      '(and, after a restart, what its receivers did not handle), rests once idle and wakes on a message; ' +
      "the project's state itself is its journal and workspace.",
    file: 'machines/org/project-run.ts',
    exportName: 'projectRunMachine',
  }),
];
