import { z } from 'zod';
import { OutcomeStatusSchema } from '../runtime/outcome-status.ts';

/** Any JSON object a tier fills as it likes (`task_data`, `resources_used`, `metadata`). */
const OpenObjectSchema = z.record(z.string(), z.unknown());

/** Spec 002's rule for inline content: under 1 KB (1024 UTF-8 bytes), else stored in Beads. */
export const INLINE_LIMIT_BYTES = 1024;

const encoder = new TextEncoder();
/** UTF-8 length; text too short to reach the limit even at 3 bytes a code unit is not encoded. */
const utf8Bytes = (text: string) => (text.length * 3 < INLINE_LIMIT_BYTES ? text.length : encoder.encode(text).length);

/** Spec 002's `OutcomeStatus` is the runtime's outcome scale (DESIGN adopts it for every system). */
export { OutcomeStatusSchema, type OutcomeStatus } from '../runtime/outcome-status.ts';

/**
 * Spec 002's `DelegationPayload` (down): what to do, within which limits, by when. Loose, as every
 * tiers object: a newer minor version's fields are kept.
 */
export const DelegationPayloadSchema = z.looseObject({
  task_type: z.string().min(1),
  objective: z.string().min(1),
  constraints: z.array(z.string()),
  context_refs: z.array(z.string()),
  /** 0 = critical .. 4 = backlog: the runtime's own scale. */
  priority: z.int().min(0).max(4),
  timeout_ms: z.int().min(1).nullable(),
  deadline_hint: z.string().nullable(),
  specialist_hint: z.string().nullable(),
  task_data: OpenObjectSchema,
});
export type DelegationPayload = z.infer<typeof DelegationPayloadSchema>;

/** Spec 002's `Artifact`: exactly one of `content_ref` and `inline_content`, inline only under 1 KB. */
export const ArtifactSchema = z
  .looseObject({
    artifact_type: z.string().min(1),
    content_ref: z.string().min(1).nullable(),
    inline_content: z.string().nullable(),
    metadata: OpenObjectSchema,
  })
  .superRefine((artifact, ctx) => {
    if ((artifact.content_ref === null) === (artifact.inline_content === null)) {
      ctx.addIssue({
        code: 'custom',
        path: ['inline_content'],
        message: 'Set exactly one of content_ref and inline_content; the other must be null.',
      });
    } else if (artifact.inline_content !== null && utf8Bytes(artifact.inline_content) >= INLINE_LIMIT_BYTES) {
      ctx.addIssue({
        code: 'custom',
        path: ['inline_content'],
        message: `Inline content must be under ${INLINE_LIMIT_BYTES} bytes; store it in Beads and set content_ref.`,
      });
    }
  });
export type Artifact = z.infer<typeof ArtifactSchema>;

/** Spec 002's `OutcomePayload` (up): how it went, what came of it, and what surprised. */
export const OutcomePayloadSchema = z.looseObject({
  status: OutcomeStatusSchema,
  summary: z.string(),
  result_refs: z.array(z.string()),
  confidence: z.number().min(0).max(1),
  execution_time_ms: z.int().min(0),
  resources_used: OpenObjectSchema,
  surprise_flag: z.boolean(),
  surprise_reason: z.string().nullable(),
  error_type: z.string().nullable(),
  error_detail: z.string().nullable(),
  recoverable: z.boolean().nullable(),
  artifacts: z.array(ArtifactSchema),
});
export type OutcomePayload = z.infer<typeof OutcomePayloadSchema>;

/**
 * Spec 002's Clarification Protocol answer, as its example writes it: `needs_clarification` with
 * the questions in `error_detail`, sent at once, so the metrics of a full outcome may be absent
 * (each is checked when present).
 */
export const ClarificationPayloadSchema = OutcomePayloadSchema.partial().extend({
  status: z.literal('needs_clarification'),
  summary: z.string(),
  error_type: z.string().min(1),
  error_detail: z.string().min(1),
  recoverable: z.boolean(),
});
export type ClarificationPayload = z.infer<typeof ClarificationPayloadSchema>;

/** Spec 002's `CancellationPayload`: abort a delegation, and with `cascade` its descendants too. */
export const CancellationPayloadSchema = z.looseObject({
  target_message_id: z.string().min(1),
  reason: z.string(),
  cascade: z.boolean(),
});
export type CancellationPayload = z.infer<typeof CancellationPayloadSchema>;

export type TiersPayload = DelegationPayload | OutcomePayload | ClarificationPayload | CancellationPayload;
