import { z } from 'zod';

/**
 * Every `data_type` of the nutrition protocol: the payloads of §4.1-4.9, `pipeline_error` (§6),
 * `upstream_data_request` (§6.3), `weekly_checkin` (§7.1) and `adjustment_result` (§7.4).
 */
export const NutritionDataTypeSchema = z.enum([
  'intake_data',
  'macro_targets',
  'nutrition_strategy',
  'weekly_meal_plan',
  'recipes',
  'training_input',
  'training_program',
  'health_query',
  'medical_context',
  'pipeline_error',
  'upstream_data_request',
  'weekly_checkin',
  'adjustment_result',
]);
export type NutritionDataType = z.infer<typeof NutritionDataTypeSchema>;
