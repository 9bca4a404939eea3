import { pickRecipe } from '../../../actors/nutrition/recipes/chef-recipe-picker.ts';
import { WEEKDAYS } from '../../../actors/nutrition/dietitian/dietitian-rotation.ts';
import { MEAL_SLOTS } from '../../../actors/nutrition/dietitian/dietitian-slot-specs.ts';
import { slotRequirements } from '../../../actors/nutrition/recipes/recipe-bank-eligibility.ts';
import type { BankRecipe } from '../../../actors/nutrition/recipes/recipe-bank-entry.ts';
import type { MealSlot, MealSlotPlan, WeeklyMealPlan } from '../../../protocol/nutrition/weekly-meal-plan.ts';
import type { Weekday } from '../../../protocol/nutrition/weekday.ts';

// Reading helpers for tests of the DIETITIAN and CHEF brains.

/** The bank recipe the CHEF serves for a slot of a plan (from the plan alone). */
export function servedRecipe(slotPlan: MealSlotPlan, slot: MealSlot): BankRecipe {
  const picked = pickRecipe(slotRequirements(slot, slotPlan.slot_spec), slotPlan, slotPlan.slot_spec);
  if (!picked) throw new Error(`No recipe is served for ${slot}`);
  return picked.recipe;
}

/**
 * The id each slot of a plan must name first: the bank id of the recipe the CHEF serves there, or
 * `<id>#n` when that recipe is also served (on any day) by n - 1 slot types earlier in the day,
 * since the CHEF scales it once per slot type and numbers the scalings in slot order.
 */
export function servedRecipeIds(plan: WeeklyMealPlan): Record<Weekday, Record<MealSlot, string>> {
  const served = (day: Weekday, slot: MealSlot) => servedRecipe(plan.weekly_template[day]![slot]!, slot).id;
  const bankIds = Object.fromEntries(
    WEEKDAYS.map((day) => [day, Object.fromEntries(MEAL_SLOTS.map((slot) => [slot, served(day, slot)]))]),
  ) as Record<Weekday, Record<MealSlot, string>>;
  const slotsServing = (id: string) => MEAL_SLOTS.filter((slot) => WEEKDAYS.some((day) => bankIds[day][slot] === id));
  return Object.fromEntries(
    WEEKDAYS.map((day) => [
      day,
      Object.fromEntries(
        MEAL_SLOTS.map((slot) => {
          const id = bankIds[day][slot];
          const n = slotsServing(id).indexOf(slot) + 1;
          return [slot, n === 1 ? id : `${id}#${n}`];
        }),
      ),
    ]),
  ) as Record<Weekday, Record<MealSlot, string>>;
}

/** Every recipe id a plan names: alternatives, substitution bank, solo week. */
export function planRecipeIds(plan: WeeklyMealPlan): string[] {
  const ids = WEEKDAYS.flatMap((day) =>
    MEAL_SLOTS.flatMap((slot) => plan.weekly_template[day]?.[slot]?.alternatives ?? []),
  );
  ids.push(...Object.values(plan.substitution_bank).flat(), ...plan.solo_week_protocol.recipe_ids);
  return [...new Set(ids)];
}

/** The week's totals: every slot spec of the 7 days summed. */
export function weekTotals(plan: WeeklyMealPlan) {
  const totals = { calories: 0, protein_g: 0, carbs_g: 0, fat_g: 0 };
  for (const day of WEEKDAYS) {
    for (const slot of MEAL_SLOTS) {
      const spec = plan.weekly_template[day]?.[slot]?.slot_spec;
      if (!spec) throw new Error(`${day} ${slot} is missing`);
      totals.calories += spec.calories;
      totals.protein_g += spec.protein_g;
      totals.carbs_g += spec.carbs_g;
      totals.fat_g += spec.fat_g;
    }
  }
  return totals;
}
