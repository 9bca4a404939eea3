import { describe, expect, it } from 'vitest';
import { adjusterCandidates, DEFAULT_ADJUSTERS } from '../../../../../actors/nutrition/recipes/chef-adjusters.ts';
import {
  macroDeviation,
  recipeDeviation,
  SLOT_SPEC_TOLERANCE,
} from '../../../../../actors/nutrition/recipes/chef-recipe-deviation.ts';
import { SCALE_LIMITS, scaleRecipe } from '../../../../../actors/nutrition/recipes/chef-scaling.ts';
import { MEAL_SLOTS, slotMacros } from '../../../../../actors/nutrition/dietitian/dietitian-slot-specs.ts';
import { aversionSet, isFoodAverted } from '../../../../../actors/nutrition/food/food-aversions.ts';
import { macrosOf, roundMacros } from '../../../../../actors/nutrition/food/food-macros.ts';
import { RECIPE_BANK, recipeById } from '../../../../../actors/nutrition/recipes/recipe-bank.ts';
import type { SlotSpec } from '../../../../../protocol/nutrition/weekly-meal-plan.ts';
import { strategyOf } from '../../../../support/nutrition/dietitian-fixtures.ts';

const none = aversionSet([]);

describe('recipeDeviation', () => {
  const spec: SlotSpec = {
    protein_g: 40,
    carbs_g: 100,
    fat_g: 20,
    calories: 740,
    prep_time_max_min: 30,
    constraints: [],
  };

  it('gives the signed relative deviation per macro and the largest absolute one', () => {
    const deviation = recipeDeviation(
      { macros_per_serving: { protein_g: 44, carbs_g: 95, fat_g: 20, fiber_g: 5, calories: 740 } },
      spec,
    );
    expect(deviation.protein_g).toBeCloseTo(0.1, 10);
    expect(deviation.carbs_g).toBeCloseTo(-0.05, 10);
    expect(deviation.fat_g).toBe(0);
    expect(deviation.calories).toBe(0);
    expect(deviation.max).toBeCloseTo(0.1, 10);
  });

  it('treats a zero target as met only by zero', () => {
    const zeroFat = { protein_g: 40, carbs_g: 100, fat_g: 0, calories: 560 };
    expect(macroDeviation({ ...zeroFat }, zeroFat).max).toBe(0);
    expect(macroDeviation({ ...zeroFat, fat_g: 0.1 }, zeroFat).max).toBe(Infinity);
  });
});

describe('scaleRecipe', () => {
  it('keeps a recipe as it is (scale 1, no adjusters) when the target is its own macros', () => {
    const recipe = recipeById('dn-chili-con-carne')!;
    const own = roundMacros(macrosOf(recipe.ingredients));
    const scaled = scaleRecipe(recipe, own, none)!;
    expect(scaled.scale).toBeCloseTo(1, 2);
    expect(scaled.ingredients.some((i) => i.adjuster)).toBe(false);
    expect(scaled.deviation.max).toBeLessThanOrEqual(0.03);
  });

  it('scales every ingredient by one factor when the macros are proportional', () => {
    const recipe = recipeById('ln-teriyaki-chicken-rice')!;
    const base = macrosOf(recipe.ingredients);
    const target = {
      protein_g: base.protein_g * 1.5,
      carbs_g: base.carbs_g * 1.5,
      fat_g: base.fat_g * 1.5,
      calories: base.calories * 1.5,
    };
    const scaled = scaleRecipe(recipe, target, none)!;
    expect(scaled.scale).toBeCloseTo(1.5, 2);
    scaled.ingredients.forEach((ingredient, index) =>
      expect(ingredient.amount_g).toBeCloseTo((recipe.ingredients[index]?.amount_g ?? 0) * 1.5, -0.5),
    );
  });

  it('adds adjusters when one factor cannot hit all macros, and reports honest macros', () => {
    const recipe = recipeById('ps-yogurt-honey-walnuts')!;
    const target = { protein_g: 45, carbs_g: 30, fat_g: 12, calories: 4 * 45 + 4 * 30 + 9 * 12 };
    const scaled = scaleRecipe(recipe, target, none)!;
    expect(scaled.deviation.max).toBeLessThanOrEqual(SLOT_SPEC_TOLERANCE);
    expect(roundMacros(macrosOf(scaled.ingredients))).toEqual(scaled.macros);
    expect(scaled.ingredients.some((i) => i.adjuster === 'protein_g' || i.food === 'whey_isolate')).toBe(true);
  });

  it('never adds an averted adjuster', () => {
    const recipe = recipeById('ps-yogurt-honey-walnuts')!;
    const target = { protein_g: 45, carbs_g: 30, fat_g: 12, calories: 4 * 45 + 4 * 30 + 9 * 12 };
    const noWhey = aversionSet(['whey']);
    expect(adjusterCandidates(recipe, 'protein_g', noWhey)).not.toContain('whey_isolate');
    const scaled = scaleRecipe(recipe, target, noWhey)!;
    expect(scaled.ingredients.filter((i) => isFoodAverted(i.food, noWhey))).toEqual([]);
    expect(scaled.deviation.max).toBeLessThanOrEqual(SLOT_SPEC_TOLERANCE);
  });

  it('prefers more of an ingredient the recipe already has over a new side', () => {
    const recipe = recipeById('dn-chicken-stir-fry')!;
    expect(adjusterCandidates(recipe, 'carbs_g', none)[0]).toBe('white_rice');
    expect(adjusterCandidates(recipe, 'protein_g', none)[0]).toBe('chicken_breast');
    expect(adjusterCandidates(recipe, 'fat_g', none)).toContain('olive_oil');
    expect(DEFAULT_ADJUSTERS.sweet.protein_g[0]).toBe('whey_isolate');
  });

  it('returns undefined when the recipe would have to shrink below its limit', () => {
    // A 200 kcal snack with 5 g fat cannot come from a recipe with 30 g fat per serving
    // scaled no lower than 0.3 (9 g fat).
    const recipe = recipeById('dn-tofu-coconut-curry')!;
    expect(macrosOf(recipe.ingredients).fat_g * SCALE_LIMITS.min).toBeGreaterThan(5 * (1 + SLOT_SPEC_TOLERANCE));
    expect(scaleRecipe(recipe, { protein_g: 10, carbs_g: 30, fat_g: 5, calories: 205 }, none)).toBeUndefined();
  });

  it('meets every slot spec of realistic days within 10 % with at least three recipes per slot', () => {
    const days = [
      [1600, 80, 25],
      [2000, 100, 30],
      [2400, 95, 28],
      [2800, 140, 30],
      [3200, 160, 35],
      [3800, 200, 25],
    ] as const;
    for (const [kcal, protein, fat] of days) {
      for (const appetite of ['low', 'normal', 'high'] as const) {
        const macros = slotMacros(strategyOf(kcal, protein, fat), appetite);
        for (const slot of MEAL_SLOTS) {
          const fits = RECIPE_BANK.filter((recipe) => recipe.slots.includes(slot))
            .map((recipe) => scaleRecipe(recipe, macros[slot], none))
            .filter((scaled) => scaled !== undefined);
          expect(fits.length, `${kcal} kcal ${appetite} ${slot}`).toBeGreaterThanOrEqual(3);
          for (const scaled of fits) {
            expect(scaled.deviation.max, `${scaled.recipe.id} ${slot}`).toBeLessThanOrEqual(SLOT_SPEC_TOLERANCE);
            expect(scaled.ingredients.every((i) => i.amount_g > 0)).toBe(true);
          }
        }
      }
    }
  });
});
