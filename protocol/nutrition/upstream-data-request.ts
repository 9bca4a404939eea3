import { z } from 'zod';
import { NutritionAgentSchema } from './agents.ts';
import { rejectReplacedFieldNames } from './canonical-fields.ts';
import { NutritionDataTypeSchema } from './nutrition-data-type.ts';

/**
 * §6.3 (`upstream_data_request`): an agent lacks data an upstream agent should have provided, and
 * says which fields are missing and from which agent, so that the orchestrator re-runs that agent.
 */
export const UpstreamDataRequestSchema = rejectReplacedFieldNames(
  z.strictObject({
    /** The agent that needs the data. */
    requesting_agent: NutritionAgentSchema,
    /** The upstream agent that should have provided it (the one to re-run). */
    upstream_agent: NutritionAgentSchema,
    /** The data_type of the upstream message the fields belong to. */
    upstream_data_type: NutritionDataTypeSchema,
    /** Dotted paths of the missing fields within that payload, e.g. "protein_distribution.snack_g". */
    missing_fields: z.array(z.string().min(1)).min(1),
    /** Why the fields are needed. */
    details: z.string().min(1),
  }),
);
