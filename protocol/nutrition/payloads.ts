import type { z } from 'zod';
import { AdjustmentResultSchema } from './adjustment-result.ts';
import { HealthQuerySchema } from './health-query.ts';
import { IntakeDataSchema } from './intake-data.ts';
import { MacroTargetsSchema } from './macro-targets.ts';
import { MedicalContextSchema } from './medical-context.ts';
import type { NutritionDataType } from './nutrition-data-type.ts';
import { NutritionStrategySchema } from './nutrition-strategy.ts';
import { PipelineErrorSchema } from './pipeline-error.ts';
import { RecipesSchema } from './recipes.ts';
import { TrainingInputSchema } from './training-input.ts';
import { TrainingProgramSchema } from './training-program.ts';
import { UpstreamDataRequestSchema } from './upstream-data-request.ts';
import { WeeklyCheckinSchema } from './weekly-checkin.ts';
import { WeeklyMealPlanSchema } from './weekly-meal-plan.ts';

export { NutritionDataTypeSchema, type NutritionDataType } from './nutrition-data-type.ts';

/** The payload schema of each nutrition `data_type` (§4, §6, §7). */
export const NutritionPayloadSchemas = {
  intake_data: IntakeDataSchema,
  macro_targets: MacroTargetsSchema,
  nutrition_strategy: NutritionStrategySchema,
  weekly_meal_plan: WeeklyMealPlanSchema,
  recipes: RecipesSchema,
  training_input: TrainingInputSchema,
  training_program: TrainingProgramSchema,
  health_query: HealthQuerySchema,
  medical_context: MedicalContextSchema,
  pipeline_error: PipelineErrorSchema,
  upstream_data_request: UpstreamDataRequestSchema,
  weekly_checkin: WeeklyCheckinSchema,
  adjustment_result: AdjustmentResultSchema,
} as const satisfies Record<NutritionDataType, z.ZodType>;

/** The payload type of a `data_type`, e.g. `PayloadOf<'macro_targets'>`. */
export type PayloadOf<D extends NutritionDataType> = z.infer<(typeof NutritionPayloadSchemas)[D]>;
