import { z } from 'zod';
import { NutritionAgentSchema } from './agents.ts';
import { rejectReplacedFieldNames } from './canonical-fields.ts';
import { MenstrualStatusSchema } from './client-profile.ts';
import { BodyWeightKgSchema } from './nutrient-amounts.ts';

/** §4.8 `query_type`. */
const HealthQueryTypeSchema = z.enum(['health_question', 'red_flag', 'symptom_check']);

/** §4.8 `user_context`: what the PHYSICIAN needs to know about the client. */
const HealthQueryUserContextSchema = z.strictObject({
  current_weight_kg: BodyWeightKgSchema,
  bmi: z.number().positive().max(100),
  symptoms: z.array(z.string().min(1)),
  menstrual_status: MenstrualStatusSchema,
  training_weeks: z.number().int().min(0).max(520),
  supplements_current: z.array(z.string().min(1)),
});

/**
 * §4.8 any agent -> PHYSICIAN (`health_query`). Several red flags of one run are batched into one
 * query (§5), so `query` may describe more than one.
 */
export const HealthQuerySchema = rejectReplacedFieldNames(
  z.strictObject({
    query_type: HealthQueryTypeSchema,
    /** Free-text description. */
    query: z.string().min(1),
    /** The agent that triggered the query (USER when the user asks, §5). */
    requesting_agent: NutritionAgentSchema,
    user_context: HealthQueryUserContextSchema,
  }),
);
export type HealthQuery = z.infer<typeof HealthQuerySchema>;
