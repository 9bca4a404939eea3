/** The tiers system's statecharts, for the visualizer. */
import { machineEntry, type MachineEntry } from '../runtime/machine-entry.ts';
import { delegationMachine } from './delegation.ts';

export const MACHINES: readonly MachineEntry[] = [
  machineEntry(delegationMachine, {
    title: 'Delegation',
    summary: 'One per delegation message of spec 002: pending, working, then exactly one terminal status.',
    file: 'machines/tiers/delegation.ts',
    exportName: 'delegationMachine',
  }),
];
