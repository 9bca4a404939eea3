import { COSCIENTIST_ADDRESSING, CoscientistAgentSchema } from '../../protocol/coscientist/envelope.ts';
import { CoscientistMessageSchema } from '../../protocol/coscientist/message.ts';
import { COSCIENTIST_ROUTES } from '../../protocol/coscientist/routing-table.ts';
import type { SystemDefinition } from '../runtime/supervisor-system.ts';
import { agentMailbox } from './agent-mailbox.ts';

/**
 * The co-scientist as a supervised system: spec 003's Message routed verbatim (validated with its
 * payload), the routing table with the SUPERVISOR at one end of every edge, broadcast only from
 * it, expiry and the 1-10 priority read from `routing`. A message's journal partition is its
 * goal, named in `payload.metadata.research_id`.
 *
 * @example
 * const supervisor = createActor(createSupervisorMachine(coscientistSystem(), { journal }), { input: {} }).start();
 */
export function coscientistSystem(): SystemDefinition {
  return {
    name: 'coscientist',
    envelope: CoscientistMessageSchema,
    addressing: COSCIENTIST_ADDRESSING,
    routes: COSCIENTIST_ROUTES,
    agents: Object.fromEntries(CoscientistAgentSchema.options.map((name) => [name, agentMailbox])),
    partitionOf: (envelope) => researchIdOf(envelope),
    delivery: 'durable',
  };
}

/** The goal a message belongs to (`payload.metadata.research_id`). */
export function researchIdOf(envelope: unknown): string {
  const id = (envelope as { payload?: { metadata?: { research_id?: unknown } } }).payload?.metadata?.research_id;
  if (typeof id !== 'string' || id === '') {
    throw new Error('A co-scientist message names its goal in payload.metadata.research_id: set it.');
  }
  return id;
}
