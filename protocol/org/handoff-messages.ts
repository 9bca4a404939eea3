import { z } from 'zod';
import { ErrorIssueSchema } from '../runtime/http-error.ts';
import { DeliverableTypeSchema } from './deliverables.ts';
import { OrgAgentSchema } from './envelope.ts';

/** The sender's quality self-assessment of a deliverable it marks complete (Handoff Protocol step 1). */
export const SelfAssessmentSchema = z.strictObject({
  complete: z.boolean(),
  confidence: z.number().min(0).max(1),
  checks: z.array(z.string().min(1)),
});

/**
 * `payload.content` of a `handoff_notification` (a `request`): where the deliverable is and the
 * version of its schema. `location` names a deliverable in the project's workspace
 * (`deliverables/<type>/v<n>`); an external agent may send the deliverable inline instead.
 */
export const HandoffNotificationSchema = z.strictObject({
  kind: z.literal('handoff_notification'),
  handoff_id: z.string().min(1).max(200),
  deliverable_type: DeliverableTypeSchema,
  schema_version: z.string().regex(/^\d+\.\d+$/, 'major.minor, such as 1.0'),
  location: z.string().min(1),
  self_assessment: SelfAssessmentSchema,
  deliverable: z.unknown().optional(),
});
export type HandoffNotification = z.infer<typeof HandoffNotificationSchema>;

/** `payload.content` of the receiver's answer (a `response`): `accepted`, or `rejected` with the issues. */
export const HandoffVerdictSchema = z.strictObject({
  kind: z.literal('handoff_response'),
  handoff_id: z.string().min(1),
  verdict: z.enum(['accepted', 'rejected']),
  issues: z.array(ErrorIssueSchema),
  /** How many times this receiver has rejected this handoff (2: escalated, no third try). */
  rejections: z.int().min(0),
});
export type HandoffVerdict = z.infer<typeof HandoffVerdictSchema>;

/** The id of the handoffs of `type` from `from` to `to` in a project, round `round` (a new round after acceptance). */
export function handoffIdOf(from: string, to: string, type: string, round: number): string {
  return `${from}>${to}:${type}#${round}`;
}

/** Reads a handoff id back into its parts. */
export const HandoffIdSchema = z
  .string()
  .regex(/^([a-z-]+)>([a-z-]+):([a-z_]+)#(\d+)$/)
  .transform((id) => {
    const [, from, to, type, round] = /^([a-z-]+)>([a-z-]+):([a-z_]+)#(\d+)$/.exec(id)!;
    return { from: OrgAgentSchema.parse(from), to: OrgAgentSchema.parse(to), type: type!, round: Number(round) };
  });
