/** The tiers system's statecharts, for the visualizer. */
import { agentMachine } from '../runtime/agent.ts';
import { machineEntry, type MachineEntry } from '../runtime/machine-entry.ts';
import { delegationMachine } from './delegation.ts';
import { createFleetMachine } from './fleet-machine.ts';

/** The fleet as drawn: its states do not depend on which specialists it hosts. */
const drawnFleet = createFleetMachine({ 'js-solver': agentMachine }, agentMachine, (name) => ({ name }));

export const MACHINES: readonly MachineEntry[] = [
  machineEntry(delegationMachine, {
    title: 'Delegation',
    summary: 'One per delegation message of spec 002: pending, working, then exactly one terminal status.',
    file: 'machines/tiers/delegation.ts',
    exportName: 'delegationMachine',
  }),
  machineEntry(drawnFleet, {
    title: 'Fleet (spec 002)',
    summary:
      'The SPECIALIZED_FLEET tier: one worker per specialist, addressed by specialist_hint, and a desk that ' +
      'answers cancellations and delegations to no known specialist.',
    file: 'machines/tiers/fleet-machine.ts',
    exportName: 'createFleetMachine',
  }),
];
