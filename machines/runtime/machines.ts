/** The runtime's own statecharts, drawn beside every system's. */
import { z } from 'zod';
import { createMemoryJournal } from '../../actors/runtime/memory-journal.ts';
import { RoutableEnvelopeSchema, type RoutedRecord } from '../../protocol/runtime/routing.ts';
import { agentMachine } from './agent.ts';
import { machineEntry, type MachineEntry } from './machine-entry.ts';
import { createSupervisorMachine } from './supervisor.ts';

/**
 * The supervisor is a factory; its states do not depend on the system, so it is drawn for a
 * system with no agents, with pipelined delivery (whose machine has every transition).
 */
const drawnSupervisor = createSupervisorMachine(
  {
    name: 'any',
    envelope: RoutableEnvelopeSchema as z.ZodType<z.infer<typeof RoutableEnvelopeSchema>>,
    routes: [],
    agents: {},
    delivery: 'pipelined',
    partitionOf: () => 'any',
  },
  { journal: createMemoryJournal<RoutedRecord>() },
);

export const MACHINES: readonly MachineEntry[] = [
  machineEntry(drawnSupervisor, {
    title: 'Supervisor',
    summary: 'Routes every envelope of a system: validate, check the routing table, drop duplicates, journal, deliver.',
    file: 'machines/runtime/supervisor.ts',
    exportName: 'createSupervisorMachine',
  }),
  machineEntry(agentMachine, {
    title: 'Agent worker',
    summary: 'The generic worker of every agent: one request at a time, with timeout, one retry and cancel.',
    file: 'machines/runtime/agent.ts',
    exportName: 'agentMachine',
  }),
];
