import type { MealSlot, WeeklyMealPlan } from '../../protocol/nutrition/weekly-meal-plan.ts';
import { WeekdaySchema } from '../../protocol/nutrition/weekday.ts';
import type { Weekday } from '../../protocol/nutrition/weekday.ts';
import type { SlotAssignment } from './chef-recipe-picker.ts';
import { MEAL_SLOTS } from './dietitian-slot-specs.ts';
import type { BankRecipe } from './recipe-bank-entry.ts';

/** The seven §4.4 template days, monday first. */
export const WEEKDAYS: readonly Weekday[] = WeekdaySchema.options;

/**
 * Which of a slot's recipes each day gets (index into the slot's chosen recipes, monday first):
 * two alternating breakfasts, snacks and pre-sleep meals (variety without shopping for seven);
 * lunches in batches (cook Sunday for Monday-Wednesday, Wednesday for Thursday-Saturday); four
 * dinners so that no dinner comes back within three days.
 */
export const ROTATION: Record<MealSlot, readonly number[]> = {
  breakfast: [0, 1, 0, 1, 0, 1, 0],
  lunch: [0, 0, 0, 1, 1, 1, 2],
  snack: [0, 1, 0, 1, 0, 1, 0],
  dinner: [0, 1, 2, 3, 0, 1, 2],
  presleep: [0, 1, 0, 1, 0, 1, 0],
};

/** How many substitutes each slot of the template lists after its own recipe. */
export const ALTERNATIVES_PER_SLOT = 3;

/** The recipes a slot may use, as the DIETITIAN found them. */
export interface SlotOptions {
  /** Eligible recipes that scale to the slot spec, in bank order. */
  feasible: readonly BankRecipe[];
  /** Feasible recipes the CHEF resolves back to from their own protein and cuisine, best first. */
  primaries: readonly BankRecipe[];
}

/**
 * Picks each day's recipe per slot. A recipe used by an earlier slot is only reused when a slot
 * has nothing else, so the week does not serve the same smoothie as breakfast and snack. On a
 * re-run (§10 rule 2) a day keeps its previous recipe whenever it is still a valid primary, so
 * that only what must change changes.
 */
export function assignPrimaries(
  options: Record<MealSlot, SlotOptions>,
  resolvePrevious: (day: Weekday, slot: MealSlot) => BankRecipe | undefined,
): Record<Weekday, Record<MealSlot, BankRecipe>> {
  const used = new Set<string>();
  const pools = {} as Record<MealSlot, BankRecipe[]>;
  for (const slot of MEAL_SLOTS) {
    const variety = Math.max(...ROTATION[slot]) + 1;
    const { primaries } = options[slot];
    const pool = [...primaries.filter((r) => !used.has(r.id)), ...primaries.filter((r) => used.has(r.id))].slice(
      0,
      variety,
    );
    pool.forEach((recipe) => used.add(recipe.id));
    pools[slot] = pool;
  }
  const week = {} as Record<Weekday, Record<MealSlot, BankRecipe>>;
  WEEKDAYS.forEach((day, dayIndex) => {
    const slots = {} as Record<MealSlot, BankRecipe>;
    for (const slot of MEAL_SLOTS) {
      const pool = pools[slot];
      const rotated = pool[(ROTATION[slot][dayIndex] ?? 0) % pool.length];
      const previous = resolvePrevious(day, slot);
      const recipe = previous && options[slot].primaries.includes(previous) ? previous : rotated;
      if (recipe) slots[slot] = recipe;
    }
    week[day] = slots;
  });
  return week;
}

/**
 * A slot's `alternatives`: its own recipe first (the one the CHEF serves, so that a conflict check
 * that looks recipes up by these ids checks it against this slot), then the next feasible
 * recipes after it, cyclically. Recipes served in another slot type are left out, so that no id
 * here names a recipe the CHEF scaled to a different slot spec.
 */
export function alternativesFor(
  feasible: readonly BankRecipe[],
  primary: BankRecipe,
  servedElsewhere: ReadonlySet<string>,
): string[] {
  const start = feasible.indexOf(primary);
  const ordered = [...feasible.slice(start + 1), ...feasible.slice(0, Math.max(start, 0))];
  const substitutes = ordered.filter((recipe) => recipe !== primary && !servedElsewhere.has(recipe.id));
  return [primary.id, ...substitutes.slice(0, ALTERNATIVES_PER_SLOT).map((recipe) => recipe.id)];
}

/** The slot assignment under which the CHEF serves `recipe` (its own protein and cuisine). */
export function assignmentOf(recipe: BankRecipe, alternatives: readonly string[] = []): SlotAssignment {
  return { primary_protein: recipe.primary_protein, cuisine_theme: recipe.cuisine, alternatives: [...alternatives] };
}

/** A previous plan's slot, when the previous plan has one. */
export function previousSlot(previous: WeeklyMealPlan | undefined, day: Weekday, slot: MealSlot) {
  return previous?.weekly_template[day]?.[slot];
}
