import { z } from 'zod';

// Number schemas shared by every payload that carries energy or macronutrient amounts, so that
// the same quantity has the same bounds wherever it appears.

/** A daily energy amount in kcal (BMR, TDEE, intake target). */
export const DailyKcalSchema = z.number().positive().max(10_000);

/** A daily macronutrient amount in grams. */
export const DailyGramsSchema = z.number().min(0).max(1_000);

/** An energy amount of one meal or serving in kcal. */
export const MealKcalSchema = z.number().min(0).max(5_000);

/** A macronutrient amount of one meal or serving in grams. */
export const MealGramsSchema = z.number().min(0).max(500);

/** A body weight in kg. */
export const BodyWeightKgSchema = z.number().positive().max(400);

/** Daily fiber floor (§4.2 `fiber_g_min`): at least 20 g. */
export const FiberFloorGramsSchema = z.number().min(20).max(150);

/** A daily fluid amount in litres. */
export const LitresSchema = z.number().positive().max(15);
