import { BREAKFAST_RECIPES } from './recipe-bank-breakfast.ts';
import { FISH_VEG_DINNER_RECIPES } from './recipe-bank-dinner-fish-veg.ts';
import { MEAT_DINNER_RECIPES } from './recipe-bank-dinner-meat.ts';
import type { BankRecipe } from './recipe-bank-entry.ts';
import { LUNCH_BOWL_RECIPES } from './recipe-bank-lunch-bowls.ts';
import { LUNCH_LIGHT_RECIPES } from './recipe-bank-lunch-light.ts';
import { PRESLEEP_RECIPES } from './recipe-bank-presleep.ts';
import { SNACK_RECIPES } from './recipe-bank-snack.ts';

/**
 * The CHEF's built-in recipe bank, in a fixed order (the planners' tie-break). Ids are stable:
 * plans refer to them in `alternatives` (a later scaling as `<id>#2`, see `recipeVariantId`),
 * `substitution_bank` and `solo_week_protocol`.
 * A few recipes contain nut butters on purpose: every client averts them (§4.1), so they prove
 * that aversion filtering works rather than that the bank happens to lack them.
 */
export const RECIPE_BANK: readonly BankRecipe[] = [
  ...BREAKFAST_RECIPES,
  ...LUNCH_BOWL_RECIPES,
  ...LUNCH_LIGHT_RECIPES,
  ...SNACK_RECIPES,
  ...MEAT_DINNER_RECIPES,
  ...FISH_VEG_DINNER_RECIPES,
  ...PRESLEEP_RECIPES,
];

const BY_ID: ReadonlyMap<string, BankRecipe> = new Map(RECIPE_BANK.map((recipe) => [recipe.id, recipe]));

/** Ends a recipe id that names a bank recipe's second, third... scaling in one week (`<id>#2`). */
const VARIANT = /#([2-9]|[1-9][0-9]+)$/;

/**
 * The bank recipe with id `id`, if any. A variant id (`<id>#2`, see `recipeVariantId`) names its
 * bank recipe too.
 */
export function recipeById(id: string): BankRecipe | undefined {
  return BY_ID.get(id) ?? BY_ID.get(id.replace(VARIANT, ''));
}

/**
 * The id of a bank recipe's `ordinal`-th scaling in one week's recipes (1 first): its own id,
 * then `<id>#2`, `<id>#3`... The CHEF gives a bank recipe scaled to several slot specs one id per
 * scaling, so that an id names one scaling, and the DIETITIAN's plan names the scaling each slot
 * gets.
 */
export function recipeVariantId(bankId: string, ordinal: number): string {
  return ordinal === 1 ? bankId : `${bankId}#${ordinal}`;
}
