import { z } from 'zod';
import { rejectReplacedFieldNames } from './canonical-fields.ts';
import { MealGramsSchema, MealKcalSchema } from './nutrient-amounts.ts';
import { RecipeIdSchema } from './weekly-meal-plan.ts';

/** One ingredient of a recipe (§4.5). */
const IngredientSchema = z.strictObject({
  item: z.string().min(1),
  amount_g: z.number().positive().max(5_000),
  /** May be empty when the item needs no preparation. */
  prep_notes: z.string(),
});

/** §4.5 `macros_per_serving`. */
const MacrosPerServingSchema = z.strictObject({
  protein_g: MealGramsSchema,
  fat_g: MealGramsSchema,
  carbs_g: MealGramsSchema,
  fiber_g: MealGramsSchema,
  calories: MealKcalSchema,
});

/** One recipe of §4.5. */
export const RecipeSchema = z.strictObject({
  /**
   * Not in §4.5: the id by which `alternatives` and `substitution_bank` (§4.4) refer to this
   * recipe; absent when the recipe is not referred to.
   */
  recipe_id: RecipeIdSchema.optional(),
  recipe_name: z.string().min(1),
  cuisine: z.string().min(1),
  servings: z.number().int().min(1).max(50),
  ingredients: z.array(IngredientSchema).min(1),
  macros_per_serving: MacrosPerServingSchema,
  /** Step by step. */
  instructions: z.array(z.string().min(1)).min(1),
  time: z.strictObject({
    prep_min: z.number().int().min(0).max(1_440),
    cook_min: z.number().int().min(0).max(1_440),
  }),
  batch_notes: z.string(),
  storage: z.strictObject({
    fridge_days: z.number().int().min(0).max(30),
    freezer_friendly: z.boolean(),
  }),
  calorie_boost_options: z.array(z.string().min(1)),
});
export type Recipe = z.infer<typeof RecipeSchema>;

/** §4.5 CHEF -> OUTPUT (`recipes`). */
export const RecipesSchema = rejectReplacedFieldNames(
  z.strictObject({
    recipes: z.array(RecipeSchema).min(1),
  }),
);
export type Recipes = z.infer<typeof RecipesSchema>;
