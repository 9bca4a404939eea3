import { WEEKDAYS } from '../../../actors/nutrition/dietitian/dietitian-rotation.ts';
import { foodIdByName, macrosOf } from '../../../actors/nutrition/food/food-macros.ts';
import type { MacroTotals } from '../../../actors/nutrition/food/food-macros.ts';
import type { Recipe } from '../../../protocol/nutrition/recipes.ts';
import type { Weekday } from '../../../protocol/nutrition/weekday.ts';
import { MealSlotSchema } from '../../../protocol/nutrition/weekly-meal-plan.ts';
import type { MealSlot, WeeklyMealPlan } from '../../../protocol/nutrition/weekly-meal-plan.ts';

// Reading helpers for tests of the CHEF brain.

const NAME_LINK = /: (breakfast|lunch|snack|dinner|presleep), (every day|[A-Z][a-z]{2}(?:\/[A-Z][a-z]{2})*)$/;

/**
 * The (day, slot) pairs a CHEF recipe answers, read from its name (`<name>: <slot>, <days>`),
 * checked against the plan: each must exist there.
 */
export function answeredSlots(recipe: Recipe, plan: WeeklyMealPlan): { day: Weekday; slot: MealSlot }[] {
  const match = NAME_LINK.exec(recipe.recipe_name);
  if (!match) throw new Error(`Recipe name does not say which slots it answers: ${recipe.recipe_name}`);
  const slot = MealSlotSchema.parse(match[1]);
  const days =
    match[2] === 'every day'
      ? [...WEEKDAYS]
      : (match[2] ?? '').split('/').map((label) => {
          const day = WEEKDAYS.find((d) => d.slice(0, 3) === label.toLowerCase());
          if (!day) throw new Error(`Unknown day ${label}`);
          return day;
        });
  for (const day of days) {
    if (!plan.weekly_template[day]?.[slot]) throw new Error(`${day} ${slot} is not in the plan`);
  }
  return days.map((day) => ({ day, slot }));
}

/** A recipe's per-serving macros recomputed from its ingredient list and the food table. */
export function recomputedMacros(recipe: Pick<Recipe, 'ingredients' | 'servings'>): MacroTotals {
  const portions = recipe.ingredients.map((ingredient) => {
    const food = foodIdByName(ingredient.item);
    if (!food) throw new Error(`Unknown ingredient ${ingredient.item}`);
    return { food, amount_g: ingredient.amount_g / recipe.servings };
  });
  return macrosOf(portions);
}
