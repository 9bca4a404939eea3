import { describe, expect, it } from 'vitest';
import { ADJUSTABLE_FOODS } from '../../../../../actors/nutrition/recipes/chef-adjusters.ts';
import { aversionSet, isFoodAverted, normalizeFoodWord } from '../../../../../actors/nutrition/food/food-aversions.ts';
import {
  allFoodIds,
  atwaterKcal,
  foodIdByName,
  macroRole,
  macrosOf,
  roundMacros,
} from '../../../../../actors/nutrition/food/food-macros.ts';
import { FOOD_TABLE } from '../../../../../actors/nutrition/food/food-table.ts';
import type { FoodId } from '../../../../../actors/nutrition/food/food-table.ts';

describe('food table', () => {
  it('has physically possible rows: non-negative, at most 100 g of macros per 100 g, fiber within carbs', () => {
    for (const id of allFoodIds()) {
      const { protein_g, fat_g, carbs_g, fiber_g } = FOOD_TABLE[id].per100g;
      for (const value of [protein_g, fat_g, carbs_g, fiber_g]) expect(value, id).toBeGreaterThanOrEqual(0);
      expect(protein_g + fat_g + carbs_g, id).toBeLessThanOrEqual(100.5);
      expect(fiber_g, id).toBeLessThanOrEqual(carbs_g);
      expect(atwaterKcal(FOOD_TABLE[id].per100g), id).toBeGreaterThan(0);
    }
  });

  it('matches USDA energy within 12 % for well-known foods (catches a mistyped macro)', () => {
    // kcal per 100 g, USDA FoodData Central SR Legacy.
    const usdaKcal: Partial<Record<FoodId, number>> = {
      chicken_breast: 120,
      whole_milk: 61,
      rolled_oats: 379,
      white_rice: 130,
      olive_oil: 884,
      eggs: 143,
      banana: 89,
      salmon: 208,
      greek_yogurt: 59,
      cheddar: 403,
      pasta: 371,
      potato: 77,
      honey: 304,
      lean_ground_beef: 176,
      black_beans: 132,
      avocado: 160,
    };
    for (const [id, kcal] of Object.entries(usdaKcal) as [FoodId, number][]) {
      const ours = atwaterKcal(FOOD_TABLE[id].per100g);
      expect(Math.abs(ours - kcal) / kcal, `${id}: ${ours} vs ${kcal}`).toBeLessThanOrEqual(0.12);
    }
  });

  it('names every food uniquely, so an ingredient item maps back to its row', () => {
    for (const id of allFoodIds()) expect(foodIdByName(FOOD_TABLE[id].name)).toBe(id);
    expect(foodIdByName('unicorn meat')).toBeUndefined();
  });
});

describe('macrosOf', () => {
  it('scales per-100 g values by the amount and sums portions', () => {
    const macros = macrosOf([
      { food: 'white_rice', amount_g: 200 },
      { food: 'olive_oil', amount_g: 10 },
    ]);
    expect(macros.carbs_g).toBeCloseTo(56.4, 6);
    expect(macros.fat_g).toBeCloseTo(0.6 + 10, 6);
    expect(macros.protein_g).toBeCloseTo(5.4, 6);
    expect(macros.calories).toBeCloseTo(4 * 5.4 + 4 * 56.4 + 9 * 10.6, 6);
  });

  it('rounds grams to 0.1 and energy to whole kcal', () => {
    expect(roundMacros({ protein_g: 1.26, fat_g: 2.24, carbs_g: 3.35, fiber_g: 0.04, calories: 99.5 })).toEqual({
      protein_g: 1.3,
      fat_g: 2.2,
      carbs_g: 3.4,
      fiber_g: 0,
      calories: 100,
    });
  });
});

describe('macroRole', () => {
  it('finds the macro a food is nearly pure in, and none for mixed foods', () => {
    expect(macroRole('whey_isolate')).toBe('protein_g');
    expect(macroRole('white_rice')).toBe('carbs_g');
    expect(macroRole('olive_oil')).toBe('fat_g');
    expect(macroRole('rolled_oats')).toBeUndefined();
    expect(macroRole('eggs')).toBeUndefined();
  });

  it('holds for every food the CHEF may add to correct one macro', () => {
    for (const [role, foods] of Object.entries(ADJUSTABLE_FOODS)) {
      for (const food of foods) expect(macroRole(food), food).toBe(role);
    }
  });
});

describe('food aversions', () => {
  it('normalizes case, separators and plurals', () => {
    expect(normalizeFoodWord('Peanut Butter')).toBe('peanut_butter');
    expect(normalizeFoodWord('nut-butters')).toBe('nut_butter');
    expect(normalizeFoodWord('Tomatoes')).toBe('tomato');
    expect(normalizeFoodWord('berries')).toBe('berry');
    expect(normalizeFoodWord('hummus')).toBe('hummus');
  });

  it('always averts peanut butter and every nut butter (§4.1), even from an empty list', () => {
    const none = aversionSet([]);
    expect(isFoodAverted('peanut_butter', none)).toBe(true);
    expect(isFoodAverted('almond_butter', none)).toBe(true);
    expect(isFoodAverted('almonds', none)).toBe(false);
    expect(isFoodAverted('tahini', none)).toBe(false);
  });

  it('averts by plain name, ingredient name or family', () => {
    const eggs = aversionSet(['Eggs']);
    expect(['eggs', 'egg_whites', 'mayonnaise'].every((f) => isFoodAverted(f as FoodId, eggs))).toBe(true);
    expect(isFoodAverted('chicken_breast', eggs)).toBe(false);
    const dairy = aversionSet(['dairy']);
    for (const food of ['whole_milk', 'whey_isolate', 'casein', 'cheddar', 'butter', 'heavy_cream'] as const) {
      expect(isFoodAverted(food, dairy), food).toBe(true);
    }
    expect(isFoodAverted('soy_milk', dairy)).toBe(false);
    expect(isFoodAverted('smoked_salmon', aversionSet(['smoked salmon']))).toBe(true);
    expect(isFoodAverted('cod', aversionSet(['fish']))).toBe(true);
  });

  it('excludes nothing for an aversion that names no food of the table', () => {
    const odd = aversionSet(['durian']);
    expect(allFoodIds().filter((id) => isFoodAverted(id, odd) && !isFoodAverted(id, aversionSet([])))).toEqual([]);
  });
});
