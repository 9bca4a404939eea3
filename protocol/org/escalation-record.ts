import { z } from 'zod';
import { OrgAgentSchema, OrgEscalationPayloadSchema } from './envelope.ts';

/**
 * An escalation as the chief tracks it: the spec's Conflict Escalation Format, whom the chief
 * routed it to (an agent, or the user), and how it was resolved. A recommendation is never
 * applied unless the resolver says so.
 */
export const EscalationRecordSchema = z.strictObject({
  escalation_id: z.string().min(1),
  project_id: z.string().min(1),
  from: OrgAgentSchema,
  payload: OrgEscalationPayloadSchema,
  status: z.enum(['open', 'routed', 'awaiting_user', 'resolved']),
  resolver: z.union([OrgAgentSchema, z.literal('user')]).optional(),
  reason: z.string().optional(),
  resolution: z
    .strictObject({
      by: z.union([OrgAgentSchema, z.literal('user')]),
      decision: z.string().min(1),
      applied_recommendation: z.boolean(),
      at: z.string(),
    })
    .optional(),
  /** A decision the escalation holds back (a clash with an active one): recorded only if the resolver applies it. */
  pending_decision: z.record(z.string(), z.unknown()).optional(),
  created_at: z.string(),
});
export type EscalationRecord = z.infer<typeof EscalationRecordSchema>;
