import type { ErrorIssue } from '../../../protocol/runtime/http-error.ts';
import type { ClientConstraints } from '../../../protocol/nutrition/macro-targets.ts';
import type { Recipe, Recipes } from '../../../protocol/nutrition/recipes.ts';
import type { MealSlot, SlotSpec, WeeklyMealPlan } from '../../../protocol/nutrition/weekly-meal-plan.ts';
import type { Weekday } from '../../../protocol/nutrition/weekday.ts';
import { candidateRecipes, pickRecipe } from './chef-recipe-picker.ts';
import { recipeDeviation, SLOT_SPEC_TOLERANCE } from './chef-recipe-deviation.ts';
import { recipeNameFor, renderRecipe } from './chef-recipe-render.ts';
import { memoizedScaler } from './chef-scaling.ts';
import { recipeVariantId } from './recipe-bank.ts';
import type { ScaledRecipe } from './chef-scaling.ts';
import { ChefScalingError } from './chef-scaling-error.ts';
import { WEEKDAYS } from '../dietitian/dietitian-rotation.ts';
import { parseSlotConstraints } from '../dietitian/dietitian-slot-constraints.ts';
import { MEAL_SLOTS } from '../dietitian/dietitian-slot-specs.ts';
import { isFoodAverted } from '../food/food-aversions.ts';
import { foodIdByName } from '../food/food-macros.ts';
import { slotRequirements } from './recipe-bank-eligibility.ts';
import type { SlotRequirements } from './recipe-bank-eligibility.ts';

/** §8 rank 4 re-run: the DIETITIAN's plan is authoritative; the CHEF must meet it. */
interface ChefConstraint {
  /** The authoritative plan; replaces the `mealPlan` argument when given. */
  meal_plan?: WeeklyMealPlan;
  /** Largest relative deviation allowed per macro (default §8's 0.10). */
  max_deviation?: number;
}

/** What the CHEF needs besides the §4.4 plan. */
interface ChefContext {
  /**
   * §4.2 `client_constraints`, when the pipeline has them. The plan's `avoid:` and
   * `max_difficulty:` constraints already carry aversions and skill, and nut butters are always
   * averted (§4.1), so the CHEF is safe without them.
   */
  client_constraints?: ClientConstraints;
  /** Its previous output on a re-run (§10 rule 2): recipes still meeting their spec are kept as is. */
  previous_output?: Recipes;
  /**
   * §6.2: issues of the previous attempt. This brain's output always passes its schema, so issues
   * come from another brain: the previous output is then not reused.
   */
  validation_issues?: readonly ErrorIssue[];
  /** §8 rank 4: comply with the DIETITIAN's plan; previous recipes are not reused. */
  constraint?: ChefConstraint;
}

interface Group {
  slot: MealSlot;
  spec: SlotSpec;
  req: SlotRequirements;
  scaled: ScaledRecipe;
  days: Weekday[];
}

/**
 * CHEF (§4.5): one recipe per distinct (slot, slot spec, recipe) of the week, not 35 copies.
 * Each is a bank recipe scaled to its slot spec within §8's 10 % on protein, carbs, fat and
 * calories (adjusting with rice, oil, whey... when one factor cannot), or the next candidate
 * (same protein and cuisine, then the slot's alternatives, then any eligible recipe). Macros are
 * recomputed from the food table. Throws `ChefScalingError` when no candidate can comply.
 *
 * @example
 * const { recipes } = buildRecipes(plan, { client_constraints });
 */
export function buildRecipes(mealPlan: WeeklyMealPlan, context: ChefContext = {}): Recipes {
  const plan = context.constraint?.meal_plan ?? mealPlan;
  const tolerance = context.constraint?.max_deviation ?? SLOT_SPEC_TOLERANCE;
  const scale = memoizedScaler();
  const groups = new Map<string, Group>();
  // Days of a slot mostly share one slot plan: each distinct plan is resolved once per call.
  const picked = new Map<string, { req: SlotRequirements; scaled: ScaledRecipe | undefined }>();
  for (const day of WEEKDAYS) {
    for (const slot of MEAL_SLOTS) {
      const slotPlan = plan.weekly_template[day]?.[slot];
      if (!slotPlan) continue;
      const planKey = JSON.stringify([slot, slotPlan]);
      let pick = picked.get(planKey);
      if (!pick) {
        const req = slotRequirements(slot, slotPlan.slot_spec, context.client_constraints);
        pick = { req, scaled: pickRecipe(req, slotPlan, slotPlan.slot_spec, tolerance, scale) };
        picked.set(planKey, pick);
      }
      const { req, scaled } = pick;
      if (!scaled) {
        const tried = candidateRecipes(req, slotPlan).map((recipe) => recipe.id);
        throw new ChefScalingError(slot, day, slotPlan.slot_spec, tried, tolerance);
      }
      const key = JSON.stringify([slot, slotPlan.slot_spec, scaled.recipe.id]);
      const group = groups.get(key);
      if (group) group.days.push(day);
      else groups.set(key, { slot, spec: slotPlan.slot_spec, req, scaled, days: [day] });
    }
  }
  const reusable =
    context.constraint === undefined && (context.validation_issues ?? []).length === 0
      ? (context.previous_output?.recipes ?? [])
      : [];
  const uses = new Map<string, number>();
  const recipes = [...groups.values()]
    .toSorted((a, b) => MEAL_SLOTS.indexOf(a.slot) - MEAL_SLOTS.indexOf(b.slot))
    .map((group) => {
      // A bank recipe scaled to a second slot spec gets its own id (`<id>#2`), in slot order.
      const bankId = group.scaled.recipe.id;
      const count = (uses.get(bankId) ?? 0) + 1;
      uses.set(bankId, count);
      const id = recipeVariantId(bankId, count);
      return previousRecipe(reusable, group, id, tolerance) ?? { ...render(group), recipe_id: id };
    });
  return { recipes };
}

function render(group: Group): Recipe {
  const parsed = parseSlotConstraints(group.spec.constraints);
  return renderRecipe(group.scaled, {
    slot: group.slot,
    days: group.days,
    shared: parsed.sharedDinner,
    calorieDense: parsed.calorieDense,
    aversions: group.req.aversions,
  });
}

/**
 * The previous run's recipe for the same slot, days and bank recipe, if it still meets the spec
 * and holds no averted or unknown ingredient: keeping it makes a re-run's output a small delta.
 */
function previousRecipe(previous: readonly Recipe[], group: Group, id: string, tolerance: number): Recipe | undefined {
  const name = recipeNameFor(group.scaled.recipe.name, group.slot, group.days);
  const servings = parseSlotConstraints(group.spec.constraints).sharedDinner ? 2 : 1;
  const match = previous.find(
    (recipe) => recipe.recipe_id === id && recipe.recipe_name === name && recipe.servings === servings,
  );
  if (!match || recipeDeviation(match, group.spec).max > tolerance) return undefined;
  const safe = match.ingredients.every((ingredient) => {
    const food = foodIdByName(ingredient.item);
    return food !== undefined && !isFoodAverted(food, group.req.aversions);
  });
  return safe ? match : undefined;
}
