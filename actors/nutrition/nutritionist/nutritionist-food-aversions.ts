// Matching foods against the client's aversions (§4.1 `food_aversions`, e.g. "peanut_butter").

/** "Peanut_Butter" -> "peanut butter": aversions are ids, foods are words. */
export function normalizeFood(food: string): string {
  return food.trim().toLowerCase().replace(/[_-]+/g, ' ').replace(/\s+/g, ' ');
}

/**
 * Food groups an aversion can name, mapped to the foods in them, so that an aversion to "dairy"
 * also rules out milk, cheese, whey and the rest.
 */
const FOOD_GROUPS: Readonly<Record<string, readonly string[]>> = {
  dairy: ['milk', 'whole milk', 'cheese', 'whey', 'casein', 'greek yogurt', 'yogurt', 'cottage cheese', 'quark'],
  lactose: ['milk', 'whole milk', 'whey', 'casein', 'yogurt', 'greek yogurt', 'cottage cheese', 'quark'],
  nuts: ['nuts', 'almonds', 'walnuts', 'trail mix'],
  gluten: ['oats', 'granola', 'crackers', 'bread'],
  soy: ['soy', 'soy protein', 'tofu'],
};

/** Each word without a final "s", so that "nut butters" matches "nut butter" and "oats" "oat milk". */
export function singularFood(food: string): string {
  return normalizeFood(food)
    .split(' ')
    .map((word) => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word))
    .join(' ');
}

/**
 * True when `food` is one the client will not eat: it contains the averted food ("whole milk"
 * for "milk", "oat milk" for "oats"; plurals ignored), or belongs to an averted group ("dairy"
 * rules out "whey"). Not the other way round: an aversion to peanut butter leaves butter alone.
 */
export function isAverted(food: string, aversions: readonly string[]): boolean {
  const item = singularFood(food);
  return aversions.some((raw) => {
    const aversion = singularFood(raw);
    if (aversion.length === 0) return false;
    if (item.includes(aversion)) return true;
    return (FOOD_GROUPS[normalizeFood(raw)] ?? []).some((member) => singularFood(member) === item);
  });
}

/** The first option whose foods the client eats, or undefined when every option is averted. */
export function firstAcceptable<T extends { readonly foods: readonly string[] }>(
  options: readonly T[],
  aversions: readonly string[],
): T | undefined {
  return options.find((option) => option.foods.every((food) => !isAverted(food, aversions)));
}
