import { z } from 'zod';
import { rejectReplacedFieldNames } from './canonical-fields.ts';
import {
  DailyGramsSchema,
  DailyKcalSchema,
  FiberFloorGramsSchema,
  LitresSchema,
  MealGramsSchema,
} from './nutrient-amounts.ts';

/** §4.3 `protein_distribution`: protein target per meal slot, in grams. */
export const ProteinDistributionSchema = z.strictObject({
  breakfast_g: MealGramsSchema,
  lunch_g: MealGramsSchema,
  snack_g: MealGramsSchema,
  dinner_g: MealGramsSchema,
  presleep_g: MealGramsSchema,
});
export type ProteinDistribution = z.infer<typeof ProteinDistributionSchema>;

/** One entry of §4.3 `supplement_protocol`. */
export const SupplementSchema = z.strictObject({
  supplement: z.string().min(1),
  dose: z.string().min(1),
  timing: z.string().min(1),
});
export type Supplement = z.infer<typeof SupplementSchema>;

/** §4.3 `cycle_adjustments`: a strategy for each phase of the menstrual cycle. */
export const CycleAdjustmentsSchema = z.strictObject({
  follicular: z.string().min(1),
  luteal: z.string().min(1),
});
export type CycleAdjustments = z.infer<typeof CycleAdjustmentsSchema>;

/** §4.3 `current_tier`: the calorie ramp-up tier, 0, 1 or 2. */
export const CalorieTierSchema = z.union([z.literal(0), z.literal(1), z.literal(2)]);
export type CalorieTier = z.infer<typeof CalorieTierSchema>;

/** §4.3 NUTRITIONIST -> DIETITIAN (`nutrition_strategy`): how to eat the SCIENTIST's targets. */
export const NutritionStrategySchema = rejectReplacedFieldNames(
  z.strictObject({
    /** Pass-through from SCIENTIST (§8 rank 2: the NUTRITIONIST cannot change it). */
    target_intake_kcal: DailyKcalSchema,
    protein_g: DailyGramsSchema.positive(),
    fat_g: DailyGramsSchema.positive(),
    carbs_g: DailyGramsSchema,
    protein_distribution: ProteinDistributionSchema,
    /** Ordered by priority, highest first. */
    hardgainer_tactics: z.array(z.string().min(1)),
    supplement_protocol: z.array(SupplementSchema),
    /** May exceed the SCIENTIST's `hydration_L` because of creatine and training. */
    hydration_target_L: LitresSchema,
    /** Operational target, at least the SCIENTIST's `fiber_g_min` (itself at least 20 g). */
    fiber_target_g: FiberFloorGramsSchema,
    /** Appetite, partner, calcium-iron separation, ... */
    special_considerations: z.array(z.string().min(1)),
    cycle_adjustments: CycleAdjustmentsSchema,
    current_tier: CalorieTierSchema,
  }),
);
export type NutritionStrategy = z.infer<typeof NutritionStrategySchema>;
