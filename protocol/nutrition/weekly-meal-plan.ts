import { z } from 'zod';
import { rejectReplacedFieldNames } from './canonical-fields.ts';
import { WeekdaySchema } from './weekday.ts';
import { DailyGramsSchema, DailyKcalSchema, MealGramsSchema, MealKcalSchema } from './nutrient-amounts.ts';

/** §4.4 meal slot enum. */
export const MealSlotSchema = z.enum(['breakfast', 'lunch', 'snack', 'dinner', 'presleep']);
export type MealSlot = z.infer<typeof MealSlotSchema>;

/** A recipe id, as listed in `alternatives` and `substitution_bank`. */
export const RecipeIdSchema = z.string().min(1);

/** §4.4 `slot_spec`: what the CHEF's recipe for one meal slot must hit. */
export const SlotSpecSchema = z.strictObject({
  protein_g: MealGramsSchema,
  calories: MealKcalSchema,
  carbs_g: MealGramsSchema,
  fat_g: MealGramsSchema,
  prep_time_max_min: z.number().int().min(0).max(600),
  constraints: z.array(z.string().min(1)),
});
export type SlotSpec = z.infer<typeof SlotSpecSchema>;

/** One meal slot of one day in §4.4 `weekly_template`. */
export const MealSlotPlanSchema = z.strictObject({
  slot_spec: SlotSpecSchema,
  /** Recipe ids for substitution. */
  alternatives: z.array(RecipeIdSchema),
  /** Protein source assignment. */
  primary_protein: z.string().min(1),
  cuisine_theme: z.string().min(1).nullable(),
});
export type MealSlotPlan = z.infer<typeof MealSlotPlanSchema>;

/** §4.4 `weekly_template`: every day monday-sunday, each with all five meal slots. */
export const WeeklyTemplateSchema = z.record(WeekdaySchema, z.record(MealSlotSchema, MealSlotPlanSchema));

/** §4.4 `emergency_protocol`: the minimum viable day (meals, calories, protein target). */
export const EmergencyProtocolSchema = z.strictObject({
  meals: z.array(z.string().min(1)).min(1),
  calories: DailyKcalSchema,
  protein_g: DailyGramsSchema.positive(),
});
export type EmergencyProtocol = z.infer<typeof EmergencyProtocolSchema>;

/** §4.4 `solo_week_protocol`: the fallback when the partner is unavailable to cook. */
export const SoloWeekProtocolSchema = z.strictObject({
  description: z.string().min(1),
  recipe_ids: z.array(RecipeIdSchema),
});
export type SoloWeekProtocol = z.infer<typeof SoloWeekProtocolSchema>;

/** §4.4 `tracking_protocol`: the tracking method for weeks 1-4 and for week 5 onwards. */
export const TrackingProtocolSchema = z.strictObject({
  weeks_1_4: z.string().min(1),
  weeks_5_plus: z.string().min(1),
});
export type TrackingProtocol = z.infer<typeof TrackingProtocolSchema>;

/** §4.4 DIETITIAN -> CHEF (`weekly_meal_plan`): 7 days x 5 slots of slot specs, plus fallbacks. */
export const WeeklyMealPlanSchema = rejectReplacedFieldNames(
  z.strictObject({
    weekly_template: WeeklyTemplateSchema,
    /** Keyed by slot type, each an array of recipe ids. */
    substitution_bank: z.partialRecord(MealSlotSchema, z.array(RecipeIdSchema)),
    emergency_protocol: EmergencyProtocolSchema,
    solo_week_protocol: SoloWeekProtocolSchema,
    tracking_protocol: TrackingProtocolSchema,
  }),
);
export type WeeklyMealPlan = z.infer<typeof WeeklyMealPlanSchema>;
