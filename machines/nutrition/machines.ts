/** The nutrition system's statecharts, for the visualizer. */
import { machineEntry, type MachineEntry } from '../runtime/machine-entry.ts';
import { pipelineMachine } from './pipeline.ts';

export const MACHINES: readonly MachineEntry[] = [
  machineEntry(pipelineMachine, {
    title: 'Nutrition pipeline',
    summary: 'The orchestrator of spec 000 §1: reviews every report and moves through the nine pipeline states.',
    file: 'machines/nutrition/pipeline.ts',
    exportName: 'pipelineMachine',
  }),
];
