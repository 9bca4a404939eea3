import type { SystemDefinition } from '../../../machines/runtime/supervisor-system.ts';
import { TIERS_ADDRESSING, TIERS_VERSION_RULE, TiersEnvelopeSchema } from '../../../protocol/tiers/envelope.ts';
import { recorderAgent } from '../recorder-agent.ts';

/** A small tiers system (spec 002's envelope and version rule, recorder agents for the four tiers). */
export function tiersTestSystem(): SystemDefinition {
  return {
    name: 'tiers-test',
    envelope: TiersEnvelopeSchema,
    addressing: TIERS_ADDRESSING,
    versionRule: TIERS_VERSION_RULE,
    routes: [
      { from: 'ABSTRACT_ARCHITECT', to: 'ROUTING_DISPATCHER', data_type: 'delegation' },
      { from: 'ABSTRACT_ARCHITECT', to: 'ROUTING_DISPATCHER', data_type: 'cancellation' },
      { from: 'ROUTING_DISPATCHER', to: 'SPECIALIZED_FLEET', data_type: 'delegation' },
      { from: 'SPECIALIZED_FLEET', to: 'ROUTING_DISPATCHER', data_type: 'outcome' },
      { from: 'ROUTING_DISPATCHER', to: 'ABSTRACT_ARCHITECT', data_type: 'outcome' },
    ],
    agents: {
      PROGRESS_MONITOR: recorderAgent,
      ABSTRACT_ARCHITECT: recorderAgent,
      ROUTING_DISPATCHER: recorderAgent,
      SPECIALIZED_FLEET: recorderAgent,
    },
    partitionOf: () => 'task-1',
  };
}
