import { isFoodAverted } from '../food/food-aversions.ts';
import type { MacroRole } from '../food/food-macros.ts';
import type { FoodId } from '../food/food-table.ts';
import type { BankRecipe, RecipeStyle } from './recipe-bank-entry.ts';

/**
 * Foods the CHEF adds (or adds more of) to move one macro when scaling a whole recipe cannot hit
 * all of a slot spec at once: each is nearly pure in its macro (see `ROLE_ENERGY_SHARE`), so the
 * three corrections barely interfere. Sweet recipes take sweet adjusters, savory ones savory
 * adjusters; later entries are fallbacks for clients who avert the earlier ones.
 */
export const DEFAULT_ADJUSTERS: Record<RecipeStyle, Record<MacroRole, readonly FoodId[]>> = {
  sweet: {
    protein_g: ['whey_isolate', 'pea_protein', 'egg_whites'],
    carbs_g: ['honey', 'maple_syrup', 'banana', 'rice_cakes'],
    fat_g: ['heavy_cream', 'coconut_milk', 'olive_oil'],
  },
  savory: {
    protein_g: ['chicken_breast', 'egg_whites', 'cod', 'shrimp', 'pea_protein'],
    carbs_g: ['white_rice', 'potato', 'rice_noodles', 'couscous'],
    fat_g: ['olive_oil', 'butter', 'sesame_oil'],
  },
};

/**
 * Every food the CHEF may add more of, by macro: the defaults plus starches and proteins that
 * recipes already contain (more pasta in a pasta dish rather than a side of rice). A recipe's
 * other ingredients are never scaled on their own: nobody wants 500 g of lemon juice.
 */
export const ADJUSTABLE_FOODS: Record<MacroRole, readonly FoodId[]> = {
  protein_g: [
    ...new Set([
      ...DEFAULT_ADJUSTERS.sweet.protein_g,
      ...DEFAULT_ADJUSTERS.savory.protein_g,
      'casein',
      'tuna_canned',
    ] as const),
  ],
  carbs_g: [
    ...new Set([
      ...DEFAULT_ADJUSTERS.sweet.carbs_g,
      ...DEFAULT_ADJUSTERS.savory.carbs_g,
      'pasta',
      'sweet_potato',
    ] as const),
  ],
  fat_g: [...new Set([...DEFAULT_ADJUSTERS.sweet.fat_g, ...DEFAULT_ADJUSTERS.savory.fat_g])],
};

/** How many candidates per macro the CHEF tries (2 x 2 x 2 combinations at most). */
const ADJUSTER_TRIES = 2;

/**
 * The adjuster candidates of one macro for a recipe, best first: the recipe's own adjustable
 * ingredients (largest amount first: more rice rather than a new side), then the style's
 * defaults; averted foods are never candidates.
 */
export function adjusterCandidates(recipe: BankRecipe, role: MacroRole, aversions: ReadonlySet<string>): FoodId[] {
  const candidates: FoodId[] = [];
  for (const food of orderedAdjusters(recipe)[role]) {
    if (candidates.length === ADJUSTER_TRIES) break;
    if (!isFoodAverted(food, aversions)) candidates.push(food);
  }
  return candidates;
}

/** Every adjuster of a recipe by macro, best first, before aversions: once per recipe (the bank is constant). */
const ORDERED = new WeakMap<BankRecipe, Record<MacroRole, readonly FoodId[]>>();

function orderedAdjusters(recipe: BankRecipe): Record<MacroRole, readonly FoodId[]> {
  let ordered = ORDERED.get(recipe);
  if (!ordered) {
    const of = (role: MacroRole) => {
      const own = recipe.ingredients
        .filter((ingredient) => ADJUSTABLE_FOODS[role].includes(ingredient.food))
        .toSorted((a, b) => b.amount_g - a.amount_g)
        .map((ingredient) => ingredient.food);
      return [...new Set([...own, ...DEFAULT_ADJUSTERS[recipe.style][role]])];
    };
    ordered = { protein_g: of('protein_g'), carbs_g: of('carbs_g'), fat_g: of('fat_g') };
    ORDERED.set(recipe, ordered);
  }
  return ordered;
}
