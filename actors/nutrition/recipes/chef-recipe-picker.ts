import type { MealSlotPlan } from '../../../protocol/nutrition/weekly-meal-plan.ts';
import type { MacroTarget } from './chef-recipe-deviation.ts';
import { scaleRecipe } from './chef-scaling.ts';
import type { ScaledRecipe } from './chef-scaling.ts';
import { normalizeFoodWord } from '../food/food-aversions.ts';
import { eligibleRecipes } from './recipe-bank-eligibility.ts';
import type { SlotRequirements } from './recipe-bank-eligibility.ts';
import { recipeById } from './recipe-bank.ts';
import type { BankRecipe } from './recipe-bank-entry.ts';

/** What a plan's slot says about the recipe wanted (§4.4), without its macros. */
export type SlotAssignment = Pick<MealSlotPlan, 'primary_protein' | 'cuisine_theme' | 'alternatives'>;

/**
 * The recipes the CHEF tries for a slot, in order: eligible recipes with the slot's
 * `primary_protein` and `cuisine_theme` (a null theme matches any cuisine), then the slot's
 * `alternatives` that are eligible, then every other eligible recipe (§8 rank 4: "adjust or
 * substitute"), each in bank order.
 */
export function candidateRecipes(
  req: SlotRequirements,
  assignment: SlotAssignment,
  eligible: readonly BankRecipe[] = eligibleRecipes(req),
): BankRecipe[] {
  const protein = normalizeFoodWord(assignment.primary_protein);
  const theme = assignment.cuisine_theme === null ? undefined : normalizeFoodWord(assignment.cuisine_theme);
  const matching = eligible.filter(
    (recipe) =>
      normalizeFoodWord(recipe.primary_protein) === protein &&
      (theme === undefined || normalizeFoodWord(recipe.cuisine) === theme),
  );
  const alternatives = assignment.alternatives
    .map((id) => recipeById(id))
    .filter((recipe): recipe is BankRecipe => recipe !== undefined && eligible.includes(recipe));
  return [...new Set([...matching, ...alternatives, ...eligible])];
}

/**
 * The recipe the CHEF serves for a slot: the first candidate (see `candidateRecipes`) that scales
 * to `target` within `tolerance`, or undefined when none does. `eligible`: the slot's eligible
 * recipes when the caller has them already.
 */
export function pickRecipe(
  req: SlotRequirements,
  assignment: SlotAssignment,
  target: MacroTarget,
  tolerance?: number,
  scale: typeof scaleRecipe = scaleRecipe,
  eligible?: readonly BankRecipe[],
): ScaledRecipe | undefined {
  for (const recipe of candidateRecipes(req, assignment, eligible)) {
    const scaled = scale(recipe, target, req.aversions, tolerance);
    if (scaled) return scaled;
  }
  return undefined;
}

/**
 * The recipes of `feasible` (eligible recipes that scale to a slot, in bank order) that the CHEF
 * serves when a slot names their own protein and cuisine: the first feasible recipe of each
 * (protein, cuisine) pair. The same as keeping the recipes for which `pickRecipe(req,
 * assignmentOf(recipe), ...)` returns the recipe itself, without asking the scaler again.
 */
export function firstPerProteinAndCuisine(feasible: readonly BankRecipe[]): BankRecipe[] {
  const seen = new Set<string>();
  return feasible.filter((recipe) => {
    const key = `${normalizeFoodWord(recipe.primary_protein)}\u0000${normalizeFoodWord(recipe.cuisine)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
