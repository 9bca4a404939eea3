import { z } from 'zod';
import { rejectReplacedFieldNames } from './canonical-fields.ts';
import {
  AppetiteLevelSchema,
  CookingSkillSchema,
  FoodAversionsSchema,
  TrainingPhaseSchema,
  WeeksOnProgramSchema,
} from './client-profile.ts';
import {
  BodyWeightKgSchema,
  DailyGramsSchema,
  DailyKcalSchema,
  FiberFloorGramsSchema,
  LitresSchema,
} from './nutrient-amounts.ts';

/** Weeks of adaptation before weight-gain adjustments apply (§4.2, §7.3 "post-adaptation"). */
export const ADAPTATION_WEEKS = 4;

/** §4.2 `client_constraints`: the intake answers the NUTRITIONIST plans around. */
export const ClientConstraintsSchema = z.strictObject({
  food_aversions: FoodAversionsSchema,
  appetite_level: AppetiteLevelSchema,
  cooking_skill: CookingSkillSchema,
  partner_cooks: z.boolean(),
});
export type ClientConstraints = z.infer<typeof ClientConstraintsSchema>;

/** §4.2 SCIENTIST -> NUTRITIONIST (`macro_targets`): energy, macros and the gain timeline. */
export const MacroTargetsSchema = rejectReplacedFieldNames(
  z
    .strictObject({
      /** Mifflin-St Jeor. */
      bmr_kcal: DailyKcalSchema,
      /** BMR x activity multiplier. */
      tdee_kcal: DailyKcalSchema,
      /** TDEE + surplus. */
      target_intake_kcal: DailyKcalSchema,
      protein_g: DailyGramsSchema.positive(),
      protein_g_per_kg: z.number().min(1.6).max(2.0),
      fat_g: DailyGramsSchema.positive(),
      /** Share of calories from fat, in percent: at least 25. */
      fat_percent: z.number().min(25).max(100),
      /** The remainder. */
      carbs_g: DailyGramsSchema,
      fiber_g_min: FiberFloorGramsSchema,
      hydration_L: LitresSchema,
      current_weight_kg: BodyWeightKgSchema,
      target_weight_kg: BodyWeightKgSchema,
      weekly_weight_target_kg: z.number().min(0.25).max(0.5),
      training_phase: TrainingPhaseSchema,
      weeks_on_program: WeeksOnProgramSchema,
      adaptation_period_complete: z.boolean(),
      client_constraints: ClientConstraintsSchema,
    })
    .refine((targets) => targets.weeks_on_program >= ADAPTATION_WEEKS || !targets.adaptation_period_complete, {
      message: `adaptation_period_complete must be false while weeks_on_program < ${ADAPTATION_WEEKS}.`,
      path: ['adaptation_period_complete'],
    }),
);
export type MacroTargets = z.infer<typeof MacroTargetsSchema>;
