import type { ClientConstraints } from '../../../protocol/nutrition/macro-targets.ts';
import type { MealSlot, SlotSpec } from '../../../protocol/nutrition/weekly-meal-plan.ts';
import { parseSlotConstraints } from '../dietitian/dietitian-slot-constraints.ts';
import { aversionSet, isFoodAverted } from '../food/food-aversions.ts';
import { RECIPE_BANK } from './recipe-bank.ts';
import { DIFFICULTY_RANK, totalMinutes } from './recipe-bank-entry.ts';
import type { BankRecipe, RecipeDifficulty } from './recipe-bank-entry.ts';

/** What a recipe must satisfy to answer one meal slot. */
export interface SlotRequirements {
  slot: MealSlot;
  /** Normalized aversions, the §4.1 always-averted nut butters included. */
  aversions: ReadonlySet<string>;
  maxDifficulty: RecipeDifficulty;
  /** `slot_spec.prep_time_max_min`, compared with prep + cook minutes. */
  maxMinutes: number;
  /** The partner eats it too, so the recipe must be `shareable`. */
  sharedDinner: boolean;
}

/**
 * The requirements of a slot from its spec and, when known, the client's constraints: the
 * stricter of both wins (an aversion in either excludes a food; the lower difficulty applies).
 */
export function slotRequirements(slot: MealSlot, spec: SlotSpec, client?: ClientConstraints): SlotRequirements {
  const parsed = parseSlotConstraints(spec.constraints);
  const levels = [parsed.maxDifficulty, client?.cooking_skill].filter((d) => d !== undefined);
  const maxDifficulty = levels.reduce<RecipeDifficulty>(
    (lowest, level) => (DIFFICULTY_RANK[level] < DIFFICULTY_RANK[lowest] ? level : lowest),
    'advanced',
  );
  return {
    slot,
    aversions: aversionSet([...parsed.avoid, ...(client?.food_aversions ?? [])]),
    maxDifficulty,
    maxMinutes: spec.prep_time_max_min,
    sharedDinner: parsed.sharedDinner,
  };
}

/** Whether any ingredient of `recipe` is averted. */
export function recipeHasAvertedFood(recipe: BankRecipe, aversions: ReadonlySet<string>): boolean {
  return recipe.ingredients.some((ingredient) => isFoodAverted(ingredient.food, aversions));
}

/** Whether `recipe` may answer a slot with these requirements (macros aside: see chef scaling). */
export function isRecipeEligible(recipe: BankRecipe, req: SlotRequirements): boolean {
  return (
    recipe.slots.includes(req.slot) &&
    DIFFICULTY_RANK[recipe.difficulty] <= DIFFICULTY_RANK[req.maxDifficulty] &&
    totalMinutes(recipe) <= req.maxMinutes &&
    (!req.sharedDinner || recipe.traits.includes('shareable')) &&
    !recipeHasAvertedFood(recipe, req.aversions)
  );
}

/** The bank recipes eligible for a slot, in bank order. */
export function eligibleRecipes(req: SlotRequirements): BankRecipe[] {
  return RECIPE_BANK.filter((recipe) => isRecipeEligible(recipe, req));
}
