import type { MealSlot, WeeklyMealPlan } from '../../../protocol/nutrition/weekly-meal-plan.ts';
import { WeekdaySchema } from '../../../protocol/nutrition/weekday.ts';
import type { Weekday } from '../../../protocol/nutrition/weekday.ts';
import type { SlotAssignment } from '../recipes/chef-recipe-picker.ts';
import { MEAL_SLOTS } from './dietitian-slot-specs.ts';
import type { BankRecipe } from '../recipes/recipe-bank-entry.ts';
import { recipeVariantId } from '../recipes/recipe-bank.ts';

/** The seven §4.4 template days, monday first. */
export const WEEKDAYS: readonly Weekday[] = WeekdaySchema.options;

/**
 * Which of a slot's recipes each day gets (index into the slot's chosen recipes, monday first):
 * two alternating breakfasts, snacks and pre-sleep meals (variety without shopping for seven);
 * lunches in batches (cook Sunday for Monday-Wednesday, Wednesday for Thursday-Saturday); four
 * dinners so that no dinner comes back within three days.
 */
const ROTATION: Record<MealSlot, readonly number[]> = {
  breakfast: [0, 1, 0, 1, 0, 1, 0],
  lunch: [0, 0, 0, 1, 1, 1, 2],
  snack: [0, 1, 0, 1, 0, 1, 0],
  dinner: [0, 1, 2, 3, 0, 1, 2],
  presleep: [0, 1, 0, 1, 0, 1, 0],
};

/** How many substitutes each slot of the template lists after its own recipe. */
const ALTERNATIVES_PER_SLOT = 3;

/** The recipes a slot may use, as the DIETITIAN found them. */
export interface SlotOptions {
  /** Eligible recipes that scale to the slot spec, in bank order. */
  feasible: readonly BankRecipe[];
  /** Feasible recipes the CHEF resolves back to from their own protein and cuisine, best first. */
  primaries: readonly BankRecipe[];
}

/**
 * Picks each day's recipe per slot (see `choosePools`). On a re-run (§10 rule 2) a day keeps its
 * previous recipe whenever it is still a valid primary not served in another slot type, so that
 * only what must change changes.
 */
export function assignPrimaries(
  options: Record<MealSlot, SlotOptions>,
  resolvePrevious: (day: Weekday, slot: MealSlot) => BankRecipe | undefined,
): Record<Weekday, Record<MealSlot, BankRecipe>> {
  const pools = choosePools(options);
  const owner = new Map<string, MealSlot>();
  for (const slot of MEAL_SLOTS)
    for (const recipe of pools[slot]) if (!owner.has(recipe.id)) owner.set(recipe.id, slot);
  const week = {} as Record<Weekday, Record<MealSlot, BankRecipe>>;
  WEEKDAYS.forEach((day, dayIndex) => {
    const slots = {} as Record<MealSlot, BankRecipe>;
    for (const slot of MEAL_SLOTS) {
      const pool = pools[slot];
      let recipe = pool[(ROTATION[slot][dayIndex] ?? 0) % pool.length];
      const previous = resolvePrevious(day, slot);
      if (previous && options[slot].primaries.includes(previous) && (owner.get(previous.id) ?? slot) === slot) {
        owner.set(previous.id, slot);
        recipe = previous;
      }
      if (recipe) slots[slot] = recipe;
    }
    week[day] = slots;
  });
  return week;
}

/**
 * Each slot's recipes for the week, at most its rotation's variety. Slots with the fewest options
 * choose first, and every slot gets one recipe of its own before any gets a second, so that
 * scarce recipes (say, the only dairy-free drinks) go where nothing else fits.
 */
function choosePools(options: Record<MealSlot, SlotOptions>): Record<MealSlot, BankRecipe[]> {
  const order = MEAL_SLOTS.toSorted((a, b) => options[a].primaries.length - options[b].primaries.length);
  const used = new Set<string>();
  const pools = Object.fromEntries(MEAL_SLOTS.map((slot) => [slot, [] as BankRecipe[]])) as Record<
    MealSlot,
    BankRecipe[]
  >;
  const take = (slot: MealSlot, limit: number) => {
    for (const recipe of options[slot].primaries) {
      if (pools[slot].length >= limit) return;
      if (used.has(recipe.id)) continue;
      used.add(recipe.id);
      pools[slot].push(recipe);
    }
  };
  for (const slot of order) take(slot, 1);
  for (const slot of order) take(slot, Math.max(...ROTATION[slot]) + 1);
  // Nothing left of its own: share a recipe with another slot type rather than leave it empty.
  for (const slot of order) if (pools[slot].length === 0) pools[slot].push(...options[slot].primaries.slice(0, 1));
  return pools;
}

/**
 * A slot's `alternatives`: its own recipe first (the one the CHEF serves, so that a conflict check
 * that looks recipes up by these ids checks it against this slot), then the next feasible
 * recipes after it, cyclically. Recipes served in another slot type are left out, so that no id
 * here names a recipe the CHEF scaled to a different slot spec. `ordinal`: which of the CHEF's
 * scalings of its own recipe this slot gets (see `recipeVariantId`), above 1 when slot types
 * earlier in the day share it.
 */
export function alternativesFor(
  feasible: readonly BankRecipe[],
  primary: BankRecipe,
  servedElsewhere: ReadonlySet<string>,
  ordinal = 1,
): string[] {
  const start = feasible.indexOf(primary);
  const ordered = [...feasible.slice(start + 1), ...feasible.slice(0, Math.max(start, 0))];
  const substitutes = ordered.filter((recipe) => recipe !== primary && !servedElsewhere.has(recipe.id));
  return [
    recipeVariantId(primary.id, ordinal),
    ...substitutes.slice(0, ALTERNATIVES_PER_SLOT).map((recipe) => recipe.id),
  ];
}

/** The slot assignment under which the CHEF serves `recipe` (its own protein and cuisine). */
export function assignmentOf(recipe: BankRecipe, alternatives: readonly string[] = []): SlotAssignment {
  return { primary_protein: recipe.primary_protein, cuisine_theme: recipe.cuisine, alternatives: [...alternatives] };
}

/** A previous plan's slot, when the previous plan has one. */
export function previousSlot(previous: WeeklyMealPlan | undefined, day: Weekday, slot: MealSlot) {
  return previous?.weekly_template[day]?.[slot];
}
