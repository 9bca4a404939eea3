import { z } from 'zod';
import { addressingOf, type EnvelopeAddressing } from '../runtime/envelope-addressing.ts';
import { RUNTIME_PRIORITY_RANGE } from '../runtime/priority-scale.ts';
import type { VersionRule } from '../runtime/version-rule.ts';
import {
  CancellationPayloadSchema,
  ClarificationPayloadSchema,
  DelegationPayloadSchema,
  OutcomePayloadSchema,
  type TiersPayload,
} from './payloads.ts';

/** Spec 002's `TierLevel`, by name (the JSON examples write names, not numbers). */
export const TierSchema = z.enum(['PROGRESS_MONITOR', 'ABSTRACT_ARCHITECT', 'ROUTING_DISPATCHER', 'SPECIALIZED_FLEET']);
export type Tier = z.infer<typeof TierSchema>;

/** Spec 002's version compatibility: major 1 is read, any minor of it accepted; `1.0.0` is written. */
export const TIERS_VERSION_RULE: VersionRule = Object.freeze({ path: 'version', major: 1, current: '1.0.0' });

/**
 * Where the supervisor reads a tiers message's address (spec 002). The payload says its kind only
 * by its fields: a `target_message_id` makes a cancellation, a `status` an outcome, a `task_type`
 * a delegation; the routing table names these kinds. `correlation_id` links a message to the one
 * it answers, and a delegation's priority is already the runtime's 0..4.
 */
export const TIERS_ADDRESSING: EnvelopeAddressing = Object.freeze({
  id: 'id',
  sender: 'source_tier',
  receivers: 'target_tier',
  kind: {
    whenPresent: [
      { path: 'payload.target_message_id', kind: 'cancellation' },
      { path: 'payload.status', kind: 'outcome' },
      { path: 'payload.task_type', kind: 'delegation' },
    ],
  },
  correlation: 'correlation_id',
  priority: { path: 'payload.priority', scale: RUNTIME_PRIORITY_RANGE },
});

/** The payload schema of each kind; an outcome asking for clarification may be its short form. */
const payloadSchemaOf = (kind: string | undefined, payload: Record<string, unknown>) => {
  if (kind === 'cancellation') return CancellationPayloadSchema;
  if (kind === 'delegation') return DelegationPayloadSchema;
  if (kind === 'outcome')
    return payload['status'] === 'needs_clarification' ? ClarificationPayloadSchema : OutcomePayloadSchema;
  return undefined;
};

/** A payload checked by the schema of its kind, so its issues name its own fields (`payload.confidence`). */
const TiersPayloadSchema = z.looseObject({}).superRefine((payload, ctx) => {
  const schema = payloadSchemaOf(addressingOf(TIERS_ADDRESSING).kindOf({ payload }), payload);
  if (!schema) {
    ctx.addIssue({
      code: 'custom',
      message: 'Expected a delegation (task_type), an outcome (status) or a cancellation (target_message_id) payload.',
    });
    return;
  }
  const result = schema.safeParse(payload);
  if (result.success) return;
  for (const issue of result.error.issues)
    ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message, input: payload });
}) as unknown as z.ZodType<TiersPayload>;

/**
 * Spec 002's message envelope, loose at every level so that a newer minor version's fields are
 * kept (its version rule, `TIERS_VERSION_RULE`, refuses another major before this schema runs).
 *
 * @example
 * TiersEnvelopeSchema.parse({ version: '1.0.0', id: 'msg-001', timestamp: '2025-01-15T10:30:00Z',
 *   source_tier: 'ABSTRACT_ARCHITECT', target_tier: 'ROUTING_DISPATCHER', correlation_id: null, payload: delegation });
 */
export const TiersEnvelopeSchema = z.looseObject({
  version: z.string().regex(/^\d+\.\d+\.\d+$/, 'Expected the protocol version as MAJOR.MINOR.PATCH.'),
  id: z.string().min(1),
  timestamp: z.iso.datetime({ offset: true }),
  source_tier: TierSchema,
  target_tier: TierSchema,
  correlation_id: z.string().min(1).nullable(),
  payload: TiersPayloadSchema,
});
export type TiersEnvelope = z.infer<typeof TiersEnvelopeSchema>;
