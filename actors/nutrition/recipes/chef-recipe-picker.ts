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
export function candidateRecipes(req: SlotRequirements, assignment: SlotAssignment): BankRecipe[] {
  const eligible = eligibleRecipes(req);
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
 * to `target` within `tolerance`, or undefined when none does.
 */
export function pickRecipe(
  req: SlotRequirements,
  assignment: SlotAssignment,
  target: MacroTarget,
  tolerance?: number,
  scale: typeof scaleRecipe = scaleRecipe,
): ScaledRecipe | undefined {
  for (const recipe of candidateRecipes(req, assignment)) {
    const scaled = scale(recipe, target, req.aversions, tolerance);
    if (scaled) return scaled;
  }
  return undefined;
}
