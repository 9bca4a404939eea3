import type { Recipe } from '../../../protocol/nutrition/recipes.ts';
import type { SlotSpec } from '../../../protocol/nutrition/weekly-meal-plan.ts';

/** §8 conflict detection: a CHEF recipe may deviate at most 10 % from its slot spec (rank 4). */
export const SLOT_SPEC_TOLERANCE = 0.1;

/** The four quantities a slot spec sets and a recipe must hit. */
export interface MacroTarget {
  protein_g: number;
  carbs_g: number;
  fat_g: number;
  calories: number;
}

/** The macros §8 rank 4 compares, in a fixed order. */
export const TARGET_KEYS = [
  'protein_g',
  'carbs_g',
  'fat_g',
  'calories',
] as const satisfies readonly (keyof MacroTarget)[];

/**
 * Signed relative deviation of each quantity, `(actual - target) / target`, and `max`, the
 * largest absolute one. A zero target is met only by zero: anything else deviates infinitely
 * (a relative tolerance cannot admit it).
 */
export interface MacroDeviation extends MacroTarget {
  max: number;
}

/** Relative deviation of `actual` from `target`, per quantity and at most. */
export function macroDeviation(actual: MacroTarget, target: MacroTarget): MacroDeviation {
  const of = (key: keyof MacroTarget): number => {
    const goal = target[key];
    const diff = actual[key] - goal;
    if (goal === 0) return diff === 0 ? 0 : Math.sign(diff) * Infinity;
    return diff / goal;
  };
  const deviation = {
    protein_g: of('protein_g'),
    carbs_g: of('carbs_g'),
    fat_g: of('fat_g'),
    calories: of('calories'),
  };
  const max = Math.max(
    Math.abs(deviation.protein_g),
    Math.abs(deviation.carbs_g),
    Math.abs(deviation.fat_g),
    Math.abs(deviation.calories),
  );
  return { ...deviation, max };
}

/**
 * §8 rank 4: how far a recipe's `macros_per_serving` deviate from the slot spec it answers.
 * The recipe violates the spec when `max > SLOT_SPEC_TOLERANCE`.
 *
 * @example
 * if (recipeDeviation(recipe, slot.slot_spec).max > SLOT_SPEC_TOLERANCE) { ... re-run CHEF ... }
 */
export function recipeDeviation(recipe: Pick<Recipe, 'macros_per_serving'>, slotSpec: SlotSpec): MacroDeviation {
  return macroDeviation(recipe.macros_per_serving, slotSpec);
}
