import type { CookingSkill } from '../../../protocol/nutrition/client-profile.ts';
import type { MealSlot } from '../../../protocol/nutrition/weekly-meal-plan.ts';
import type { FoodId } from '../food/food-table.ts';

/** How hard a recipe is; ordered like §4.1 `cooking_skill`, which caps it. */
export type RecipeDifficulty = CookingSkill;

/** Difficulty rank, so that a skill admits every difficulty up to its own. */
export const DIFFICULTY_RANK: Record<RecipeDifficulty, number> = { basic: 0, intermediate: 1, advanced: 2 };

/**
 * Facts about a recipe the planners choose by: `liquid` (drinkable: the easiest calories for a
 * low appetite), `no_cook`, `shareable` (a dinner a partner eats too), `batch_friendly` (cooked
 * once for several days).
 */
export type RecipeTrait = 'liquid' | 'no_cook' | 'shareable' | 'batch_friendly';

/**
 * Sweet recipes take sweet macro adjusters (whey, honey, cream); savory ones savory adjusters
 * (chicken, rice, olive oil). See `chef-adjusters.ts`.
 */
export type RecipeStyle = 'sweet' | 'savory';

/** One ingredient of a bank recipe, for one serving. */
export interface BankIngredient {
  readonly food: FoodId;
  readonly amount_g: number;
  readonly prep_notes: string;
}

/** An optional extra that adds calories without changing the recipe (§4.5 `calorie_boost_options`). */
export interface CalorieBoost {
  readonly food: FoodId;
  readonly amount_g: number;
  /** How to add it, e.g. "drizzled over before serving". */
  readonly how: string;
}

/** One recipe of the CHEF's built-in bank, written for one serving. */
export interface BankRecipe {
  /** Stable kebab-case id with a slot prefix (`bk-`, `ln-`, `sn-`, `dn-`, `ps-`). */
  readonly id: string;
  readonly name: string;
  readonly cuisine: string;
  /** The protein source the DIETITIAN assigns (§4.4 `primary_protein`). */
  readonly primary_protein: string;
  /** The meal slots the recipe suits, most typical first. */
  readonly slots: readonly MealSlot[];
  readonly difficulty: RecipeDifficulty;
  readonly style: RecipeStyle;
  readonly traits: readonly RecipeTrait[];
  readonly ingredients: readonly BankIngredient[];
  readonly instructions: readonly string[];
  readonly time: { readonly prep_min: number; readonly cook_min: number };
  readonly batch_notes: string;
  readonly storage: { readonly fridge_days: number; readonly freezer_friendly: boolean };
  readonly boosts: readonly CalorieBoost[];
}

/** Shorthand for an ingredient: `ing('rolled_oats', 60, 'dry')`. */
export function ing(food: FoodId, amount_g: number, prep_notes = ''): BankIngredient {
  return { food, amount_g, prep_notes };
}

/** Shorthand for a calorie boost: `boost('walnuts', 15, 'chopped, on top')`. */
export function boost(food: FoodId, amount_g: number, how: string): CalorieBoost {
  return { food, amount_g, how };
}

/** Total minutes a recipe takes (prep + cook), the quantity a slot's `prep_time_max_min` caps. */
export function totalMinutes(recipe: BankRecipe): number {
  return recipe.time.prep_min + recipe.time.cook_min;
}
