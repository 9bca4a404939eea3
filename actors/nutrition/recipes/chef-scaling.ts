import { adjusterCandidates } from './chef-adjusters.ts';
import { macroDeviation, SLOT_SPEC_TOLERANCE, TARGET_KEYS } from './chef-recipe-deviation.ts';
import type { MacroDeviation, MacroTarget } from './chef-recipe-deviation.ts';
import { allFoodIds, macrosOf, roundMacros } from '../food/food-macros.ts';
import type { MacroRole, MacroTotals } from '../food/food-macros.ts';
import { FOOD_TABLE } from '../food/food-table.ts';
import type { FoodId } from '../food/food-table.ts';
import type { BankRecipe } from './recipe-bank-entry.ts';

/** One ingredient of a scaled serving; `adjuster` marks a line added to hit a macro. */
export interface ScaledIngredient {
  food: FoodId;
  amount_g: number;
  prep_notes: string;
  adjuster?: MacroRole;
}

/** A bank recipe scaled to one serving that answers a slot spec. */
export interface ScaledRecipe {
  recipe: BankRecipe;
  /** The factor applied to every original ingredient. */
  scale: number;
  ingredients: ScaledIngredient[];
  /** Per serving, rounded as reported. */
  macros: MacroTotals;
  deviation: MacroDeviation;
}

/**
 * Bounds of the whole-recipe scale factor: below 0.3 or above 3 servings' worth the dish stops
 * being itself (a third of an omelette, triple portions nobody with a low appetite eats), so the
 * CHEF corrects with adjusters instead, or picks another recipe.
 */
export const SCALE_LIMITS = { min: 0.3, max: 3 } as const;

/** A pure scale within this deviation is kept as is: no adjusters for a near-fit. */
const PURE_SCALE_TOLERANCE = 0.03;
/** Adjusted amounts are accepted as soon as protein, carbs and fat are within this deviation. */
const ADJUSTED_TOLERANCE = 0.02;
/** Step of the scale search: 2 % of the largest admissible scale per try. */
const SCALE_STEP = 0.02;
/** Adjuster amounts are rounded to the coarsest of these precisions (g) that still fits. */
const ADJUSTER_PRECISIONS = [1, 0.5, 0.1] as const;
const MACRO_KEYS = ['protein_g', 'carbs_g', 'fat_g'] as const;
/** Adjuster amounts below this (g) are not worth a line of their own. */
const MIN_ADJUSTER_G = 3;

/**
 * Scales a bank recipe to one serving that hits `target` (§8 rank 4: within 10 % on protein,
 * carbs, fat and calories), or returns undefined when it cannot.
 *
 * 1. Scale every ingredient by the least-squares factor of the relative errors; keep it if all
 *    four quantities are within 3 %.
 * 2. Otherwise pick one adjuster per macro (`adjusterCandidates`), scale the recipe down from the
 *    largest factor that overshoots no macro, and solve the 3 x 3 linear system that makes the
 *    adjusters fill the remaining protein, carbs and fat exactly; the first factor whose solution
 *    needs no negative amount wins. Amounts are rounded, macros recomputed from the food table.
 * Calories follow from the macros (Atwater), so they are as exact as the slot spec is
 * self-consistent.
 */
export function scaleRecipe(
  recipe: BankRecipe,
  target: MacroTarget,
  aversions: ReadonlySet<string>,
  tolerance: number = SLOT_SPEC_TOLERANCE,
): ScaledRecipe | undefined {
  const base = baseMacros(recipe);
  const pureScale = clamp(leastSquaresScale(base, target), SCALE_LIMITS.min, SCALE_LIMITS.max);
  let best = evaluate(recipe, pureScale, scaleIngredients(recipe, pureScale), target);
  if (best.deviation.max <= Math.min(PURE_SCALE_TOLERANCE, tolerance)) return best;

  const [proteins, carbs, fats] = MACRO_KEYS.map((role) => adjusterCandidates(recipe, role, aversions)) as [
    FoodId[],
    FoodId[],
    FoodId[],
  ];
  const highest = Math.min(SCALE_LIMITS.max, ...MACRO_KEYS.filter((k) => base[k] > 0).map((k) => target[k] / base[k]));
  const triples = proteins.flatMap((p) => carbs.flatMap((c) => fats.map((f): [FoodId, FoodId, FoodId] => [p, c, f])));
  for (const adjusters of triples) {
    const fit = fitWithAdjusters(recipe, base, target, highest, adjusters);
    if (fit && fit.deviation.max < best.deviation.max) best = fit;
    // Protein, carbs and fat exact: what is left is the slot spec's own calorie mismatch.
    if (fit && macroError(fit) <= ADJUSTED_TOLERANCE) break;
  }
  return best.deviation.max <= tolerance ? best : undefined;
}

/** The scale that minimizes the sum of squared relative errors of the four quantities. */
function leastSquaresScale(base: MacroTotals, target: MacroTarget): number {
  let num = 0;
  let den = 0;
  for (const key of TARGET_KEYS) {
    if (target[key] <= 0) continue;
    const ratio = base[key] / target[key];
    num += ratio;
    den += ratio * ratio;
  }
  return den === 0 ? 1 : num / den;
}

/**
 * Finds a scale and adjuster grams for one adjuster triple. The scales tried first are those at
 * which two adjusters alone close the gap exactly (the third would be zero: fewer added foods),
 * largest first; then factors from `highest` down in 2 % steps, with all three adjusters.
 */
function fitWithAdjusters(
  recipe: BankRecipe,
  base: MacroTotals,
  target: MacroTarget,
  highest: number,
  adjusters: [FoodId, FoodId, FoodId],
): ScaledRecipe | undefined {
  const columns = adjusters.map(perGram);
  const baseColumn = [base.protein_g, base.carbs_g, base.fat_g];
  const goal = [target.protein_g, target.carbs_g, target.fat_g] as const;
  const remainder = (p: number, c: number, f: number) => [goal[0] - p, goal[1] - c, goal[2] - f];
  const scales: number[] = [];
  for (let skipped = 0; skipped < 3; skipped += 1) {
    const solution = solve3([baseColumn, ...columns.filter((_, index) => index !== skipped)], goal);
    if (!solution || (solution[1] ?? -1) < 0 || (solution[2] ?? -1) < 0) continue;
    const scale = solution[0] ?? 0;
    if (scale >= SCALE_LIMITS.min && scale <= SCALE_LIMITS.max) scales.push(scale);
  }
  scales.sort((a, b) => b - a);
  for (let scale = highest; scale >= SCALE_LIMITS.min; scale -= highest * SCALE_STEP) scales.push(scale);

  let best: ScaledRecipe | undefined;
  for (const scale of scales) {
    // The unrounded recipe is linear in the scale: a cheap test before rounding anything.
    const linear = solve3(
      columns,
      remainder((baseColumn[0] ?? 0) * scale, (baseColumn[1] ?? 0) * scale, (baseColumn[2] ?? 0) * scale),
    );
    if (!linear || linear.some((g) => g < -1)) continue;
    const ingredients = scaleIngredients(recipe, scale);
    const current = macrosOf(ingredients);
    const grams = solve3(columns, remainder(current.protein_g, current.carbs_g, current.fat_g));
    // Half a gram below zero is rounding noise; more means this scale overshoots a macro.
    if (!grams || grams.some((g) => g < -0.5)) continue;
    for (const precision of ADJUSTER_PRECISIONS) {
      const amounts = grams.map((g) => Math.max(0, roundTo(g, precision)));
      const candidate = pruneTinyAdjusters(recipe, scale, ingredients, adjusters, amounts, target);
      if (!best || candidate.deviation.max < best.deviation.max) best = candidate;
      if (macroError(candidate) <= ADJUSTED_TOLERANCE) return candidate;
    }
  }
  return best;
}

/** Drops adjuster amounts under `MIN_ADJUSTER_G` when the fit stays within tolerance without them. */
function pruneTinyAdjusters(
  recipe: BankRecipe,
  scale: number,
  ingredients: ScaledIngredient[],
  adjusters: readonly FoodId[],
  amounts: number[],
  target: MacroTarget,
): ScaledRecipe {
  let current = evaluate(recipe, scale, addAdjusters(ingredients, adjusters, amounts), target);
  amounts.forEach((grams, index) => {
    if (grams <= 0 || grams >= MIN_ADJUSTER_G) return;
    const without = amounts.map((g, i) => (i === index ? 0 : g));
    const candidate = evaluate(recipe, scale, addAdjusters(ingredients, adjusters, without), target);
    if (macroError(candidate) <= ADJUSTED_TOLERANCE) {
      amounts[index] = 0;
      current = candidate;
    }
  });
  return current;
}

/** Largest relative error on protein, carbs and fat (calories follow from them). */
function macroError(scaled: ScaledRecipe): number {
  const { deviation } = scaled;
  return Math.max(Math.abs(deviation.protein_g), Math.abs(deviation.carbs_g), Math.abs(deviation.fat_g));
}

/** Every original ingredient times `scale`, rounded to whole grams (half grams under 10 g). */
function scaleIngredients(recipe: BankRecipe, scale: number): ScaledIngredient[] {
  return recipe.ingredients.map((ingredient) => {
    const raw = ingredient.amount_g * scale;
    const step = raw >= 10 ? 1 : 0.5;
    return { ...ingredient, amount_g: Math.max(0.5, roundTo(raw, step)) };
  });
}

/** Adds adjuster grams: to the same food's line when the recipe has one, else as a new line. */
function addAdjusters(
  ingredients: readonly ScaledIngredient[],
  foods: readonly FoodId[],
  amounts: readonly number[],
): ScaledIngredient[] {
  const out = ingredients.map((ingredient) => ({ ...ingredient }));
  foods.forEach((food, index) => {
    const grams = amounts[index] ?? 0;
    if (grams <= 0) return;
    const existing = out.find((ingredient) => ingredient.food === food);
    if (existing) existing.amount_g = roundTo(existing.amount_g + grams, 0.1);
    else out.push({ food, amount_g: grams, prep_notes: '', adjuster: MACRO_KEYS[index] ?? 'protein_g' });
  });
  return out;
}

function evaluate(
  recipe: BankRecipe,
  scale: number,
  ingredients: ScaledIngredient[],
  target: MacroTarget,
): ScaledRecipe {
  const macros = roundMacros(macrosOf(ingredients));
  return { recipe, scale, ingredients, macros, deviation: macroDeviation(macros, target) };
}

/** Solves `sum_j columns[j][i] * x[j] = rhs[i]` (3 x 3) by Cramer's rule; undefined if singular. */
function solve3(columns: readonly (readonly number[])[], rhs: readonly number[]): number[] | undefined {
  const [a = [], b = [], c = []] = columns;
  const [a0 = 0, a1 = 0, a2 = 0] = a;
  const [b0 = 0, b1 = 0, b2 = 0] = b;
  const [c0 = 0, c1 = 0, c2 = 0] = c;
  const [r0 = 0, r1 = 0, r2 = 0] = rhs;
  const det = a0 * (b1 * c2 - b2 * c1) - b0 * (a1 * c2 - a2 * c1) + c0 * (a1 * b2 - a2 * b1);
  if (Math.abs(det) < 1e-12) return undefined;
  return [
    (r0 * (b1 * c2 - b2 * c1) - b0 * (r1 * c2 - r2 * c1) + c0 * (r1 * b2 - r2 * b1)) / det,
    (a0 * (r1 * c2 - r2 * c1) - r0 * (a1 * c2 - a2 * c1) + c0 * (a1 * r2 - a2 * r1)) / det,
    (a0 * (b1 * r2 - b2 * r1) - b0 * (a1 * r2 - a2 * r1) + r0 * (a1 * b2 - a2 * b1)) / det,
  ];
}

/** `value` rounded to a multiple of `step`, without binary noise in the tenths (5.3, not 5.300000000000001). */
function roundTo(value: number, step: number): number {
  return Math.round(Math.round(value / step) * step * 10) / 10;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/**
 * `scaleRecipe` with a memo shared by every planner of the process (bounded: a flood of new
 * questions starts it over). The answer is a pure function of the recipe, the target's four
 * quantities, the aversions and the tolerance, so these make the key: within one run, the CHEF
 * asks again what the DIETITIAN asked when it checked each recipe against its slot spec. Answers
 * are shared, so callers must not change them.
 */
export function memoizedScaler(): typeof scaleRecipe {
  return (recipe, target, aversions, tolerance = SLOT_SPEC_TOLERANCE) => {
    let averted = AVERSION_KEYS.get(aversions);
    if (averted === undefined) {
      averted = JSON.stringify([...aversions].sort());
      AVERSION_KEYS.set(aversions, averted);
    }
    const key = `${recipe.id}\u0000${target.protein_g}|${target.carbs_g}|${target.fat_g}|${target.calories}|${tolerance}\u0000${averted}`;
    const known = SCALED.get(key);
    if (known && known.recipe === recipe) return known.scaled;
    const scaled = scaleRecipe(recipe, target, aversions, tolerance);
    if (SCALED.size >= MAX_SCALED) SCALED.clear();
    SCALED.set(key, { recipe, scaled });
    return scaled;
  };
}

/** Answers of `memoizedScaler`, with the recipe asked about (an id names one bank recipe, but tests make their own). */
const SCALED = new Map<string, { recipe: BankRecipe; scaled: ScaledRecipe | undefined }>();
/** About a run's worth of questions times a few hundred. */
const MAX_SCALED = 20_000;
const AVERSION_KEYS = new WeakMap<ReadonlySet<string>, string>();

/** Protein, carbs and fat per gram of each food (the food table is constant). */
const PER_GRAM = new Map<FoodId, readonly number[]>(
  allFoodIds().map((food) => [food, MACRO_KEYS.map((k) => FOOD_TABLE[food].per100g[k] / 100)]),
);

function perGram(food: FoodId): readonly number[] {
  return PER_GRAM.get(food) ?? [];
}

/** Unrounded macros of each recipe as the bank lists it, computed once per recipe. */
const BASE_MACROS = new WeakMap<BankRecipe, MacroTotals>();

function baseMacros(recipe: BankRecipe): MacroTotals {
  let base = BASE_MACROS.get(recipe);
  if (!base) {
    base = macrosOf(recipe.ingredients);
    BASE_MACROS.set(recipe, base);
  }
  return base;
}
