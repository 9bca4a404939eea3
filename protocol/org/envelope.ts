import { z } from 'zod';
import type { EnvelopeAddressing } from '../runtime/envelope-addressing.ts';
import type { PriorityScale } from '../runtime/priority-scale.ts';

/** The agents of the org system (DESIGN.md's table; spec 004 names them `agent-name`). */
export const OrgAgentSchema = z.enum([
  'chief-orchestration',
  'product',
  'frontend',
  'backend',
  'database',
  'devops',
  'sdte',
  'growth',
]);
export type OrgAgent = z.infer<typeof OrgAgentSchema>;

const DateTimeSchema = z.iso.datetime({ offset: true });

/** Spec 004's `priority` labels. */
export const OrgPrioritySchema = z.enum(['critical', 'high', 'medium', 'low']);

/** 004's labels on the runtime's scale (0 critical .. 4 backlog): `low` is 3, nothing is backlog. */
export const ORG_PRIORITY_SCALE: PriorityScale = { labels: { critical: 0, high: 1, medium: 2, low: 3 } };

/** The work payload of a request, response or notification (spec 004's v2.0 `payload`). */
export const OrgTaskPayloadSchema = z.strictObject({
  task_id: z.string().min(1),
  content: z.record(z.string(), z.unknown()),
  dependencies: z.array(z.string().min(1)).optional(),
  deadline: DateTimeSchema.optional(),
  acceptance_criteria: z.array(z.unknown()).optional(),
});

/** Spec 004's Conflict Escalation Format: what an agent cannot resolve in its domain. */
export const OrgEscalationPayloadSchema = z.strictObject({
  conflict_type: z.enum(['feasibility', 'priority', 'quality', 'timeline', 'resource']),
  agents_involved: z.array(OrgAgentSchema).min(1),
  positions: z.record(z.string(), z.string()),
  impact_if_unresolved: z.string().min(1),
  recommended_resolution: z.string().min(1),
  deadline_for_resolution: DateTimeSchema,
});

/** Spec 004's `acknowledgment`: whether the receiver must ack, how long to wait, how often to redeliver. */
export const OrgAcknowledgmentSchema = z.strictObject({
  required: z.boolean(),
  timeout_ms: z.int().min(0),
  retry_count: z.int().min(0),
});

/** Spec 004's `context`: where the message belongs and what it follows. */
export const OrgContextSchema = z.strictObject({
  sprint_id: z.string().optional(),
  prd_id: z.string().optional(),
  related_messages: z.array(z.string().min(1)).optional(),
  knowledge_graph_refs: z.array(z.string().min(1)).optional(),
});

function envelopeFor<T extends string, P extends z.ZodType>(messageType: T, payload: P) {
  return z.strictObject({
    message_id: z.uuid(),
    timestamp: DateTimeSchema,
    source_agent: OrgAgentSchema,
    destination_agent: z.union([OrgAgentSchema, z.array(OrgAgentSchema).min(1)]),
    message_type: z.literal(messageType),
    priority: OrgPrioritySchema,
    payload,
    context: OrgContextSchema.optional(),
    acknowledgment: OrgAcknowledgmentSchema.optional(),
  });
}

/**
 * Spec 004's Message Schema (v2.0), closed as the spec writes it: `destination_agent` is one agent
 * or an array of them, `message_type` picks the payload (an escalation carries the Conflict
 * Escalation Format, the others the work payload).
 *
 * @example
 * OrgEnvelopeSchema.parse({ message_id, timestamp, source_agent: 'product', destination_agent: ['frontend', 'backend'],
 *   message_type: 'notification', priority: 'medium', payload: { task_id: 'T-1', content: {} } });
 */
export const OrgEnvelopeSchema = z.discriminatedUnion('message_type', [
  envelopeFor('request', OrgTaskPayloadSchema),
  envelopeFor('response', OrgTaskPayloadSchema),
  envelopeFor('notification', OrgTaskPayloadSchema),
  envelopeFor('escalation', OrgEscalationPayloadSchema),
]);
export type OrgEnvelope = z.infer<typeof OrgEnvelopeSchema>;

/**
 * Where the supervisor reads an org message's address (spec 004): a response follows the first of
 * its `context.related_messages`, and every `request` requires acknowledgment (30 s, 3 retries
 * unless its `acknowledgment` says otherwise).
 */
export const ORG_ADDRESSING: EnvelopeAddressing = Object.freeze({
  id: 'message_id',
  sender: 'source_agent',
  receivers: 'destination_agent',
  kind: 'message_type',
  correlation: 'context.related_messages[0]',
  priority: { path: 'priority', scale: ORG_PRIORITY_SCALE },
  ack: {
    required: 'acknowledgment.required',
    timeoutMs: 'acknowledgment.timeout_ms',
    retries: 'acknowledgment.retry_count',
    requiredForKinds: ['request'],
    defaults: { timeoutMs: 30_000, retries: 3 },
  },
});
