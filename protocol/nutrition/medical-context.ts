import { z } from 'zod';
import { rejectReplacedFieldNames } from './canonical-fields.ts';

/** §4.9 `urgency`. */
export const UrgencySchema = z.enum(['routine', 'soon', 'urgent']);
export type Urgency = z.infer<typeof UrgencySchema>;

/** §4.9 / §5 `pipeline_action`: what the pipeline does after the PHYSICIAN answers. */
export const PipelineActionSchema = z.enum(['continue', 'pause_pending_referral', 'abort']);
export type PipelineAction = z.infer<typeof PipelineActionSchema>;

/** One cited source of §4.9 `sources`. */
export const MedicalSourceSchema = z.strictObject({
  author: z.string().min(1),
  year: z.number().int().min(1800).max(2100),
  publication: z.string().min(1),
  finding: z.string().min(1),
});
export type MedicalSource = z.infer<typeof MedicalSourceSchema>;

/** Text that is present and not blank. */
const NonBlankSchema = z.string().refine((text) => text.trim().length > 0, { message: 'Must not be blank.' });

/** §4.9 PHYSICIAN -> requesting agent (`medical_context`). */
export const MedicalContextSchema = rejectReplacedFieldNames(
  z
    .strictObject({
      /** Evidence-based explanation. */
      response: z.string().min(1),
      sources: z.array(MedicalSourceSchema),
      /** The physiological mechanism in accessible language. */
      mechanism_explained: z.string().min(1),
      /** Expected resolution timeline; null when none can be given. */
      timeline: z.string().min(1).nullable(),
      referral_needed: z.boolean(),
      /** The specialist type; null when no referral is needed. */
      referral_target: z.string().min(1).nullable(),
      urgency: UrgencySchema,
      pipeline_action: PipelineActionSchema,
      /** Always present (§4.9), never blank. */
      disclaimer: NonBlankSchema,
    })
    .refine((context) => !context.referral_needed || context.referral_target !== null, {
      message: 'referral_target must name a specialist when referral_needed is true.',
      path: ['referral_target'],
    }),
);
export type MedicalContext = z.infer<typeof MedicalContextSchema>;
