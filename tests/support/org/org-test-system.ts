import { randomUUID } from 'node:crypto';
import type { SystemDefinition } from '../../../machines/runtime/supervisor-system.ts';
import { ORG_ADDRESSING, OrgEnvelopeSchema } from '../../../protocol/org/envelope.ts';
import { recorderAgent } from '../recorder-agent.ts';
import { V2_SINGLE_DESTINATION } from './spec-examples.ts';

/** A small org system (spec 004's envelope, recorder agents); `database` runs but no edge reaches it. */
export function orgTestSystem(): SystemDefinition {
  return {
    name: 'org-test',
    envelope: OrgEnvelopeSchema,
    addressing: ORG_ADDRESSING,
    routes: [
      { from: 'product', to: 'frontend', data_type: 'request' },
      { from: 'product', to: 'backend', data_type: 'request' },
      { from: 'product', to: 'frontend', data_type: 'notification' },
      { from: 'product', to: 'backend', data_type: 'notification' },
      { from: 'backend', to: 'product', data_type: 'response' },
      { from: 'frontend', to: 'chief-orchestration', data_type: 'escalation' },
    ],
    agents: {
      'chief-orchestration': recorderAgent,
      product: recorderAgent,
      frontend: recorderAgent,
      backend: recorderAgent,
      database: recorderAgent,
    },
    partitionOf: (envelope) => String((envelope['context'] as { sprint_id?: string } | undefined)?.sprint_id),
  };
}

/** The spec's v2.0 example with a fresh id and what `overrides` change. */
export function orgMessage(overrides: Record<string, unknown> = {}) {
  return { ...V2_SINGLE_DESTINATION, message_id: randomUUID(), ...overrides };
}
