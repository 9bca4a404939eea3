import { z } from 'zod';
import type { EnvelopeAddressing } from '../runtime/envelope-addressing.ts';
import { PRIORITY_RANGE_1_TO_10 } from '../runtime/priority-scale.ts';

/** The agents of the co-scientist system (DESIGN.md's table; spec 003's supervisor-mediated agents). */
export const CoscientistAgentSchema = z.enum([
  'SUPERVISOR',
  'GENERATION',
  'REFLECTION',
  'RANKING',
  'EVOLUTION',
  'META_REVIEW',
]);
export type CoscientistAgent = z.infer<typeof CoscientistAgentSchema>;

/** `header.target_agent`'s value that addresses every agent but the sender (only SUPERVISOR has such edges). */
export const COSCIENTIST_BROADCAST = 'broadcast';

const DateTimeSchema = z.iso.datetime({ offset: true });

/**
 * Spec 003's Standard Message Structure: `header` (who, what, when), `payload` (`data`, agent
 * specific, and optional `metadata`, whose `task_id` ties a message to its task) and `routing`
 * (`priority` 1-10, lower more urgent, and an optional `expires_at`). Closed at every level the
 * spec spells out; `data` and `metadata` are the agents' own.
 *
 * @example
 * CoscientistEnvelopeSchema.parse({ header: { message_id, source_agent: 'SUPERVISOR', target_agent: 'broadcast',
 *   timestamp, message_type: 'research_plan' }, payload: { data: plan }, routing: { priority: 2 } });
 */
export const CoscientistEnvelopeSchema = z.strictObject({
  header: z.strictObject({
    message_id: z.uuid(),
    source_agent: CoscientistAgentSchema,
    target_agent: z.union([CoscientistAgentSchema, z.literal(COSCIENTIST_BROADCAST)]),
    timestamp: DateTimeSchema,
    message_type: z.string().min(1),
  }),
  payload: z.strictObject({
    data: z.unknown(),
    metadata: z.looseObject({ task_id: z.string().min(1).optional() }).optional(),
  }),
  routing: z.strictObject({
    priority: z.int().min(1).max(10),
    expires_at: DateTimeSchema.optional(),
  }),
});
export type CoscientistEnvelope = z.infer<typeof CoscientistEnvelopeSchema>;

/** Where the supervisor reads a co-scientist message's address (spec 003). */
export const COSCIENTIST_ADDRESSING: EnvelopeAddressing = Object.freeze({
  id: 'header.message_id',
  sender: 'header.source_agent',
  receivers: 'header.target_agent',
  broadcast: COSCIENTIST_BROADCAST,
  kind: 'header.message_type',
  correlation: 'payload.metadata.task_id',
  priority: { path: 'routing.priority', scale: PRIORITY_RANGE_1_TO_10 },
  expiry: 'routing.expires_at',
});
