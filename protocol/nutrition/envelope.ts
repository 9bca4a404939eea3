import { z } from 'zod';
import { NutritionAgentSchema } from './agents.ts';
import type { NutritionDataType } from './nutrition-data-type.ts';
import { NutritionPayloadSchemas } from './payloads.ts';
import { PipelineRunIdSchema } from './pipeline-run-id.ts';

/** §2 `message_id`: a UUID v4. */
const MessageIdSchema = z.uuidv4();

/** §2 `timestamp`: ISO 8601 in UTC, ending in `Z` (no offsets). */
const UtcTimestampSchema = z.iso.datetime();

/** §2 `version`: the protocol version, currently "1.0". */
const ProtocolVersionSchema = z.literal('1.0');

/** The envelope schema of one data_type: the §2 fields around that data_type's payload. */
function envelopeFor<D extends NutritionDataType, P extends z.ZodType>(dataType: D, payload: P) {
  return z.strictObject({
    message_id: MessageIdSchema,
    from_agent: NutritionAgentSchema,
    to_agent: NutritionAgentSchema,
    data_type: z.literal(dataType),
    payload,
    pipeline_run_id: PipelineRunIdSchema,
    timestamp: UtcTimestampSchema,
    version: ProtocolVersionSchema,
  });
}

const p = NutritionPayloadSchemas;

/** The envelope schema of each data_type, its payload validated by that data_type's schema. */
export const NutritionEnvelopeSchemas = {
  intake_data: envelopeFor('intake_data', p.intake_data),
  macro_targets: envelopeFor('macro_targets', p.macro_targets),
  nutrition_strategy: envelopeFor('nutrition_strategy', p.nutrition_strategy),
  weekly_meal_plan: envelopeFor('weekly_meal_plan', p.weekly_meal_plan),
  recipes: envelopeFor('recipes', p.recipes),
  training_input: envelopeFor('training_input', p.training_input),
  training_program: envelopeFor('training_program', p.training_program),
  health_query: envelopeFor('health_query', p.health_query),
  medical_context: envelopeFor('medical_context', p.medical_context),
  pipeline_error: envelopeFor('pipeline_error', p.pipeline_error),
  upstream_data_request: envelopeFor('upstream_data_request', p.upstream_data_request),
  weekly_checkin: envelopeFor('weekly_checkin', p.weekly_checkin),
  adjustment_result: envelopeFor('adjustment_result', p.adjustment_result),
} as const;

/**
 * The §2 canonical message envelope, validated together with its payload: `data_type` picks the
 * payload schema, so a bad payload yields issues at paths like `payload.protein_g`.
 *
 * @example
 * const result = NutritionEnvelopeSchema.safeParse(JSON.parse(body));
 * if (result.success && result.data.data_type === 'macro_targets') result.data.payload.protein_g;
 */
export const NutritionEnvelopeSchema = z.discriminatedUnion('data_type', [
  NutritionEnvelopeSchemas.intake_data,
  NutritionEnvelopeSchemas.macro_targets,
  NutritionEnvelopeSchemas.nutrition_strategy,
  NutritionEnvelopeSchemas.weekly_meal_plan,
  NutritionEnvelopeSchemas.recipes,
  NutritionEnvelopeSchemas.training_input,
  NutritionEnvelopeSchemas.training_program,
  NutritionEnvelopeSchemas.health_query,
  NutritionEnvelopeSchemas.medical_context,
  NutritionEnvelopeSchemas.pipeline_error,
  NutritionEnvelopeSchemas.upstream_data_request,
  NutritionEnvelopeSchemas.weekly_checkin,
  NutritionEnvelopeSchemas.adjustment_result,
]);
export type NutritionEnvelope = z.infer<typeof NutritionEnvelopeSchema>;

/** The envelope of one data_type, e.g. `EnvelopeOf<'macro_targets'>`. */
export type EnvelopeOf<D extends NutritionDataType> = Extract<NutritionEnvelope, { data_type: D }>;
