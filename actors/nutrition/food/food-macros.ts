import { FOOD_TABLE } from './food-table.ts';
import type { FoodId } from './food-table.ts';

/** A food and how many grams of it. */
interface Portion {
  readonly food: FoodId;
  readonly amount_g: number;
}

/** Macronutrient totals of some portions; `calories` in kcal. */
export interface MacroTotals {
  protein_g: number;
  fat_g: number;
  carbs_g: number;
  fiber_g: number;
  calories: number;
}

/**
 * Atwater general factors (kcal per g: protein 4, carbohydrate 4, fat 9; FAO 2003, "Food energy:
 * methods of analysis and conversion factors"). Carbohydrate is counted in total, fiber included,
 * exactly as the SCIENTIST counts `carbs_g` as "the remainder" (§4.2), so that a recipe's
 * calories and a slot spec's calories are the same unit.
 */
const KCAL_PER_GRAM = { protein_g: 4, carbs_g: 4, fat_g: 9 } as const;

/** Energy of macronutrient amounts by the Atwater general factors. */
export function atwaterKcal(macros: { protein_g: number; carbs_g: number; fat_g: number }): number {
  return (
    macros.protein_g * KCAL_PER_GRAM.protein_g +
    macros.carbs_g * KCAL_PER_GRAM.carbs_g +
    macros.fat_g * KCAL_PER_GRAM.fat_g
  );
}

const ID_BY_NAME: ReadonlyMap<string, FoodId> = new Map(
  (Object.keys(FOOD_TABLE) as FoodId[]).map((id) => [FOOD_TABLE[id].name, id]),
);

/** The id of the food an ingredient `item` names (as the CHEF writes it), if any. */
export function foodIdByName(name: string): FoodId | undefined {
  return ID_BY_NAME.get(name);
}

/** Every food id of the table, in table order. */
export function allFoodIds(): FoodId[] {
  return Object.keys(FOOD_TABLE) as FoodId[];
}

/** Sums the macros of portions from the food table (unrounded). */
export function macrosOf(portions: readonly Portion[]): MacroTotals {
  const total = { protein_g: 0, fat_g: 0, carbs_g: 0, fiber_g: 0, calories: 0 };
  for (const { food, amount_g } of portions) {
    const per100g = FOOD_TABLE[food].per100g;
    const factor = amount_g / 100;
    total.protein_g += per100g.protein_g * factor;
    total.fat_g += per100g.fat_g * factor;
    total.carbs_g += per100g.carbs_g * factor;
    total.fiber_g += per100g.fiber_g * factor;
  }
  total.calories = atwaterKcal(total);
  return total;
}

/** The macronutrient a food is nearly pure in, which makes it usable to correct one macro. */
export type MacroRole = 'protein_g' | 'carbs_g' | 'fat_g';

/**
 * Minimum share of a food's energy from one macro for it to count as that macro's adjuster:
 * high enough that adding it moves one macro and barely the others (rice 89 % carbs, whey
 * 94 % protein, olive oil 100 % fat), low enough to admit real foods such as chicken breast.
 */
const ROLE_ENERGY_SHARE: Record<MacroRole, number> = { protein_g: 0.75, carbs_g: 0.8, fat_g: 0.9 };

/** The macro whose energy share in `id` reaches `ROLE_ENERGY_SHARE`, if any. */
export function macroRole(id: FoodId): MacroRole | undefined {
  const per100g = FOOD_TABLE[id].per100g;
  const kcal = atwaterKcal(per100g);
  if (kcal === 0) return undefined;
  for (const role of ['protein_g', 'carbs_g', 'fat_g'] as const) {
    if ((per100g[role] * KCAL_PER_GRAM[role]) / kcal >= ROLE_ENERGY_SHARE[role]) return role;
  }
  return undefined;
}

/** Rounds macros as a recipe reports them: grams to 0.1 g, energy to whole kcal. */
export function roundMacros(macros: MacroTotals): MacroTotals {
  const tenth = (x: number) => Math.round(x * 10) / 10;
  return {
    protein_g: tenth(macros.protein_g),
    fat_g: tenth(macros.fat_g),
    carbs_g: tenth(macros.carbs_g),
    fiber_g: tenth(macros.fiber_g),
    calories: Math.round(macros.calories),
  };
}
