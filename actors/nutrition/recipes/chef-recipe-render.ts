import type { Recipe } from '../../../protocol/nutrition/recipes.ts';
import type { MealSlot } from '../../../protocol/nutrition/weekly-meal-plan.ts';
import type { Weekday } from '../../../protocol/nutrition/weekday.ts';
import type { ScaledIngredient, ScaledRecipe } from './chef-scaling.ts';
import { isFoodAverted } from '../food/food-aversions.ts';
import { macrosOf } from '../food/food-macros.ts';
import type { MacroRole } from '../food/food-macros.ts';
import { FOOD_TABLE } from '../food/food-table.ts';
import type { CalorieBoost } from './recipe-bank-entry.ts';

/** Where and how a scaled recipe is eaten in the week. */
interface RecipeUse {
  slot: MealSlot;
  /** The days whose slot this recipe answers, in week order. */
  days: readonly Weekday[];
  /** §4.1 `partner_cooks`: the recipe makes a second, identical serving for the partner. */
  shared: boolean;
  /** Low appetite: calorie boosts lead with a drink. */
  calorieDense: boolean;
  aversions: ReadonlySet<string>;
}

const DAY_LABEL: Record<Weekday, string> = {
  monday: 'Mon',
  tuesday: 'Tue',
  wednesday: 'Wed',
  thursday: 'Thu',
  friday: 'Fri',
  saturday: 'Sat',
  sunday: 'Sun',
};

/**
 * The name under which a recipe answers slots. §4.5 has no field linking a recipe to its slots,
 * so the link is in the name, deterministically: `<bank name>: <slot>, <days>`.
 */
export function recipeNameFor(bankName: string, slot: MealSlot, days: readonly Weekday[]): string {
  const when = days.length === 7 ? 'every day' : days.map((day) => DAY_LABEL[day]).join('/');
  return `${bankName}: ${slot}, ${when}`;
}

/** Turns a scaled bank recipe into a §4.5 recipe for the slots it answers. */
export function renderRecipe(scaled: ScaledRecipe, use: RecipeUse): Recipe {
  const bank = scaled.recipe;
  const servings = use.shared ? 2 : 1;
  const added = scaled.ingredients.filter((ingredient) => ingredient.adjuster !== undefined);
  return {
    recipe_id: bank.id,
    recipe_name: recipeNameFor(bank.name, use.slot, use.days),
    cuisine: bank.cuisine,
    servings,
    ingredients: scaled.ingredients.map((ingredient) => ({
      item: FOOD_TABLE[ingredient.food].name,
      amount_g: Math.round(ingredient.amount_g * servings * 10) / 10,
      prep_notes: ingredient.adjuster ? adjusterNote(ingredient.adjuster) : ingredient.prep_notes,
    })),
    macros_per_serving: scaled.macros,
    instructions: [
      ...bank.instructions,
      ...added.map((ingredient) => adjusterStep(ingredient, bank.style === 'sweet', servings)),
      ...(use.shared ? ['Plate two equal servings: one for you, one for your partner.'] : []),
    ],
    time: { prep_min: bank.time.prep_min, cook_min: bank.time.cook_min },
    batch_notes: batchNotes(bank.batch_notes, use, bank.storage.fridge_days),
    storage: { ...bank.storage },
    calorie_boost_options: boostOptions(bank.boosts, use),
  };
}

function adjusterNote(role: MacroRole): string {
  const macro = { protein_g: 'protein', carbs_g: 'carbohydrate', fat_g: 'fat' }[role];
  return `added so the serving meets the slot's ${macro} target`;
}

function adjusterStep(ingredient: ScaledIngredient, sweet: boolean, servings: number): string {
  const amount = `${Math.round(ingredient.amount_g * servings * 10) / 10} g ${FOOD_TABLE[ingredient.food].name}`;
  if (sweet) return `Blend or stir in the ${amount}.`;
  switch (ingredient.adjuster) {
    case 'carbs_g':
      return `Serve with the ${amount} on the side.`;
    case 'fat_g':
      return `Finish the dish with the ${amount}.`;
    default:
      return `Cook the ${amount} alongside the main protein and add it to the plate.`;
  }
}

function batchNotes(bankNotes: string, use: RecipeUse, fridgeDays: number): string {
  const when = use.days.map((day) => DAY_LABEL[day]).join(', ');
  const notes = [`Answers the ${use.slot} slot on ${when}.`, bankNotes];
  if (use.days.length > 1 && fridgeDays >= 2) {
    notes.push(
      `Batch: cook up to ${Math.min(use.days.length, fridgeDays)} servings at once (keeps ${fridgeDays} days).`,
    );
  }
  if (use.shared) notes.push('Quantities are for two: you and your partner eat the same dish.');
  return notes.join(' ');
}

/** Drinks offered first to a low appetite: liquid calories go down easiest (§4.1 `appetite_level`). */
const DRINK_BOOSTS: readonly CalorieBoost[] = [
  { food: 'whole_milk', amount_g: 250, how: 'as a drink alongside' },
  { food: 'soy_milk', amount_g: 250, how: 'as a drink alongside' },
];

/** The bank's boosts the client may eat, each with its energy computed from the food table. */
function boostOptions(boosts: readonly CalorieBoost[], use: RecipeUse): string[] {
  const allowed = (option: CalorieBoost) => !isFoodAverted(option.food, use.aversions);
  const drink = use.calorieDense ? DRINK_BOOSTS.find(allowed) : undefined;
  return [...(drink ? [drink] : []), ...boosts.filter(allowed)].map(
    (option) =>
      `${option.amount_g} g ${FOOD_TABLE[option.food].name}, ${option.how} (+${Math.round(macrosOf([option]).calories)} kcal)`,
  );
}
