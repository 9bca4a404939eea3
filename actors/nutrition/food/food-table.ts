/**
 * Macronutrients of one food per 100 g as eaten (raw for meat, fish and potatoes; cooked for
 * rice, quinoa and couscous, which are sold or batch-cooked that way; dry for pasta and lentils).
 */
export interface FoodMacros {
  readonly protein_g: number;
  readonly fat_g: number;
  /** Total carbohydrate (by difference), fiber included, as on a US label. */
  readonly carbs_g: number;
  readonly fiber_g: number;
}

/** One row of the food table. */
export interface Food {
  /** How the food is named in a recipe's ingredient list (`item`). */
  readonly name: string;
  readonly per100g: FoodMacros;
  /**
   * Words an aversion can name to exclude this food: its plain name, its family ("dairy",
   * "fish", "gluten", "nut_butters", ...). See `isFoodAverted`.
   */
  readonly tags: readonly string[];
}

function food(
  name: string,
  [protein_g, fat_g, carbs_g, fiber_g]: [number, number, number, number],
  tags: string[],
): Food {
  return { name, per100g: { protein_g, fat_g, carbs_g, fiber_g }, tags };
}

const DAIRY = ['dairy', 'milk', 'lactose'];
const GLUTEN = ['gluten', 'wheat'];

/**
 * The per-100 g food table every recipe's macros are computed from, so that a recipe's numbers
 * follow from its ingredients. Values: USDA FoodData Central, SR Legacy (rounded to 0.1 g);
 * for protein powders and granola, which vary by brand, typical label values.
 * Columns: [protein, fat, carbohydrate (incl. fiber), fiber] in g per 100 g.
 */
export const FOOD_TABLE = {
  // Meat, fish, eggs
  chicken_breast: food('chicken breast, skinless, raw', [22.5, 2.6, 0, 0], ['chicken', 'poultry', 'meat']),
  chicken_thigh: food('chicken thigh, skinless boneless, raw', [19.7, 4.1, 0, 0], ['chicken', 'poultry', 'meat']),
  lean_ground_beef: food('ground beef 90% lean, raw', [20.0, 10.0, 0, 0], ['beef', 'red_meat', 'meat']),
  ground_turkey: food('ground turkey 93% lean, raw', [18.7, 8.3, 0, 0], ['turkey', 'poultry', 'meat']),
  turkey_slices: food('sliced turkey breast (deli)', [18.0, 2.0, 3.0, 0], ['turkey', 'poultry', 'meat', 'deli_meat']),
  pork_tenderloin: food('pork tenderloin, raw', [20.9, 3.5, 0, 0], ['pork', 'red_meat', 'meat']),
  salmon: food('salmon fillet, raw', [20.4, 13.4, 0, 0], ['salmon', 'fish', 'seafood']),
  smoked_salmon: food('smoked salmon', [18.3, 4.3, 0, 0], ['salmon', 'fish', 'seafood']),
  cod: food('cod fillet, raw', [17.8, 0.7, 0, 0], ['cod', 'fish', 'white_fish', 'seafood']),
  tuna_canned: food('tuna canned in water, drained', [25.5, 0.8, 0, 0], ['tuna', 'fish', 'seafood']),
  shrimp: food('shrimp, peeled, raw', [20.1, 0.5, 0, 0], ['shrimp', 'prawn', 'shellfish', 'seafood']),
  eggs: food('whole eggs', [12.6, 9.5, 0.7, 0], ['egg']),
  egg_whites: food('liquid egg whites, pasteurized', [10.9, 0.2, 0.7, 0], ['egg', 'egg_white']),
  // Plant proteins and legumes
  tofu_firm: food('firm tofu', [17.3, 8.7, 2.8, 2.3], ['tofu', 'soy']),
  red_lentils: food('red lentils, dry', [23.9, 2.2, 63.1, 10.8], ['lentil', 'legume']),
  chickpeas: food('chickpeas, cooked', [8.9, 2.6, 27.4, 7.6], ['chickpea', 'legume']),
  black_beans: food('black beans, cooked', [8.9, 0.5, 23.7, 8.7], ['bean', 'black_bean', 'legume']),
  edamame: food('edamame, shelled', [11.9, 5.2, 8.9, 5.2], ['edamame', 'soy', 'legume']),
  hummus: food('hummus', [7.9, 9.6, 14.3, 6.0], ['hummus', 'chickpea', 'legume', 'sesame']),
  // Dairy and protein powders
  greek_yogurt: food('plain nonfat Greek yogurt', [10.3, 0.4, 3.6, 0], ['yogurt', 'greek_yogurt', ...DAIRY]),
  cottage_cheese: food('cottage cheese 2% fat', [10.5, 2.3, 4.8, 0], ['cottage_cheese', 'cheese', ...DAIRY]),
  whole_milk: food('whole milk', [3.2, 3.3, 4.8, 0], [...DAIRY]),
  soy_milk: food('soy milk', [3.3, 1.8, 6.3, 0.6], ['soy', 'soy_milk', 'plant_milk']),
  cheddar: food('cheddar cheese', [24.9, 33.1, 1.3, 0], ['cheddar', 'cheese', ...DAIRY]),
  feta: food('feta cheese', [14.2, 21.3, 3.9, 0], ['feta', 'cheese', ...DAIRY]),
  parmesan: food('parmesan cheese', [35.8, 25.8, 3.2, 0], ['parmesan', 'cheese', ...DAIRY]),
  cream_cheese: food('cream cheese', [6.2, 34.2, 5.5, 0], ['cream_cheese', 'cheese', ...DAIRY]),
  heavy_cream: food('heavy cream', [2.8, 36.1, 2.9, 0], ['cream', ...DAIRY]),
  butter: food('butter', [0.9, 81.1, 0.1, 0], ['butter', ...DAIRY]),
  whey_isolate: food('whey protein isolate', [86.0, 1.5, 4.0, 0], ['whey', 'protein_powder', ...DAIRY]),
  casein: food('micellar casein powder', [75.0, 2.0, 9.0, 0], ['casein', 'protein_powder', ...DAIRY]),
  pea_protein: food('pea protein isolate', [80.0, 6.5, 3.5, 0], ['pea_protein', 'protein_powder', 'legume']),
  // Grains and starches
  rolled_oats: food('rolled oats', [13.2, 6.5, 67.7, 10.1], ['oat', 'grain']),
  granola: food('granola', [10.0, 15.0, 65.0, 7.0], ['granola', 'oat', 'grain']),
  white_rice: food('white rice, cooked', [2.7, 0.3, 28.2, 0.4], ['rice', 'grain']),
  rice_noodles: food('rice noodles, dry', [6.0, 0.6, 80.2, 1.6], ['rice', 'noodle', 'grain']),
  pasta: food('dried pasta', [13.0, 1.5, 74.7, 3.2], ['pasta', 'grain', ...GLUTEN]),
  wholegrain_bread: food('wholegrain bread', [12.4, 3.5, 42.7, 6.0], ['bread', 'grain', ...GLUTEN]),
  flour_tortilla: food('flour tortilla', [8.7, 8.0, 49.4, 3.5], ['tortilla', 'grain', ...GLUTEN]),
  corn_tortilla: food('corn tortilla', [5.7, 2.9, 44.6, 6.3], ['tortilla', 'corn', 'grain']),
  bagel: food('plain bagel', [10.0, 1.5, 53.0, 2.3], ['bagel', 'bread', 'grain', ...GLUTEN]),
  pita: food('wholewheat pita', [9.8, 1.7, 55.0, 7.4], ['pita', 'bread', 'grain', ...GLUTEN]),
  couscous: food('couscous, cooked', [3.8, 0.2, 23.2, 1.4], ['couscous', 'grain', ...GLUTEN]),
  quinoa: food('quinoa, cooked', [4.4, 1.9, 21.3, 2.8], ['quinoa', 'grain']),
  potato: food('potatoes, raw', [2.0, 0.1, 17.5, 2.1], ['potato']),
  sweet_potato: food('sweet potato, raw', [1.6, 0.1, 20.1, 3.0], ['sweet_potato']),
  rice_cakes: food('plain rice cakes', [8.2, 2.8, 81.5, 4.2], ['rice_cake', 'rice', 'grain']),
  crackers: food('wholewheat crackers', [10.6, 14.1, 68.6, 10.3], ['cracker', 'grain', ...GLUTEN]),
  // Sweeteners
  honey: food('honey', [0.3, 0, 82.4, 0.2], ['honey', 'sugar']),
  maple_syrup: food('maple syrup', [0, 0.1, 67.0, 0], ['maple_syrup', 'sugar']),
  cocoa: food('unsweetened cocoa powder', [19.6, 13.7, 57.9, 37.0], ['cocoa', 'chocolate']),
  // Fruit and vegetables
  banana: food('banana', [1.1, 0.3, 22.8, 2.6], ['banana', 'fruit']),
  mixed_berries: food('mixed berries, frozen', [0.9, 0.4, 11.4, 3.6], ['berry', 'fruit']),
  pineapple: food('pineapple', [0.5, 0.1, 13.1, 1.4], ['pineapple', 'fruit']),
  raisins: food('raisins', [3.1, 0.5, 79.2, 3.7], ['raisin', 'dried_fruit', 'fruit']),
  avocado: food('avocado', [2.0, 14.7, 8.5, 6.7], ['avocado']),
  spinach: food('baby spinach', [2.9, 0.4, 3.6, 2.2], ['spinach', 'vegetable']),
  broccoli: food('broccoli', [2.8, 0.4, 6.6, 2.6], ['broccoli', 'vegetable']),
  bell_pepper: food('red bell pepper', [1.0, 0.3, 6.0, 2.1], ['pepper', 'bell_pepper', 'vegetable']),
  onion: food('onion', [1.1, 0.1, 9.3, 1.7], ['onion', 'vegetable']),
  garlic: food('garlic', [6.4, 0.5, 33.1, 2.1], ['garlic']),
  crushed_tomatoes: food('canned crushed tomatoes', [1.6, 0.3, 7.3, 1.9], ['tomato', 'vegetable']),
  tomato: food('tomatoes', [0.9, 0.2, 3.9, 1.2], ['tomato', 'vegetable']),
  cucumber: food('cucumber', [0.7, 0.1, 3.6, 0.5], ['cucumber', 'vegetable']),
  green_beans: food('green beans', [1.8, 0.2, 7.0, 2.7], ['green_bean', 'bean', 'vegetable']),
  mixed_vegetables: food('mixed vegetables, frozen', [3.3, 0.5, 13.5, 4.0], ['pea', 'carrot', 'corn', 'vegetable']),
  romaine: food('romaine lettuce', [1.2, 0.3, 3.3, 2.1], ['lettuce', 'vegetable']),
  carrot: food('carrots', [0.9, 0.2, 9.6, 2.8], ['carrot', 'vegetable']),
  // Sauces, seasonings and fats
  lemon_juice: food('lemon juice', [0.4, 0.2, 6.9, 0.3], ['lemon', 'citrus']),
  lime_juice: food('lime juice', [0.4, 0.1, 8.4, 0.4], ['lime', 'citrus']),
  salsa: food('tomato salsa', [1.5, 0.2, 6.6, 1.8], ['salsa', 'tomato', 'spicy']),
  soy_sauce: food('soy sauce', [8.1, 0.6, 4.9, 0.8], ['soy_sauce', 'soy', ...GLUTEN]),
  spice_blend: food('ground spice blend (cumin, paprika, chili)', [14.0, 13.0, 50.0, 25.0], ['spice', 'spicy']),
  mayonnaise: food('mayonnaise', [1.0, 75.0, 0.6, 0], ['mayonnaise', 'egg']),
  coconut_milk: food('canned coconut milk', [2.0, 21.3, 2.8, 0], ['coconut']),
  tahini: food('tahini', [17.0, 53.8, 21.2, 9.3], ['tahini', 'sesame', 'seed_butter']),
  olive_oil: food('olive oil', [0, 100, 0, 0], ['olive_oil', 'oil']),
  sesame_oil: food('sesame oil', [0, 100, 0, 0], ['sesame_oil', 'sesame', 'oil']),
  // Nuts and seeds
  walnuts: food('walnuts', [15.2, 65.2, 13.7, 6.7], ['walnut', 'tree_nut', 'nut']),
  almonds: food('almonds', [21.2, 49.9, 21.6, 12.5], ['almond', 'tree_nut', 'nut']),
  chia_seeds: food('chia seeds', [16.5, 30.7, 42.1, 34.4], ['chia', 'seed']),
  peanut_butter: food(
    'peanut butter',
    [25.1, 50.4, 19.6, 6.0],
    ['peanut_butter', 'nut_butters', 'peanut', 'nut', 'legume'],
  ),
  almond_butter: food(
    'almond butter',
    [21.0, 55.5, 18.8, 10.3],
    ['almond_butter', 'nut_butters', 'almond', 'tree_nut', 'nut'],
  ),
} as const satisfies Record<string, Food>;

/** The id of a food in `FOOD_TABLE`. */
export type FoodId = keyof typeof FOOD_TABLE;
