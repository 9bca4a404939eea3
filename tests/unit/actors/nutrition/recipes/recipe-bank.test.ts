import { describe, expect, it } from 'vitest';
import { PREP_TIME_CAPS, MEAL_SLOTS } from '../../../../../actors/nutrition/dietitian/dietitian-slot-specs.ts';
import { aversionSet, normalizeFoodWord } from '../../../../../actors/nutrition/food/food-aversions.ts';
import { macrosOf } from '../../../../../actors/nutrition/food/food-macros.ts';
import { FOOD_TABLE } from '../../../../../actors/nutrition/food/food-table.ts';
import {
  eligibleRecipes,
  isRecipeEligible,
  recipeHasAvertedFood,
} from '../../../../../actors/nutrition/recipes/recipe-bank-eligibility.ts';
import type { SlotRequirements } from '../../../../../actors/nutrition/recipes/recipe-bank-eligibility.ts';
import { totalMinutes } from '../../../../../actors/nutrition/recipes/recipe-bank-entry.ts';
import { RECIPE_BANK, recipeById } from '../../../../../actors/nutrition/recipes/recipe-bank.ts';

const requirements = (overrides: Partial<SlotRequirements> = {}): SlotRequirements => ({
  slot: 'dinner',
  aversions: aversionSet([]),
  maxDifficulty: 'advanced',
  maxMinutes: 90,
  sharedDinner: false,
  ...overrides,
});

describe('recipe bank', () => {
  it('holds at least 30 distinct recipes with stable, unique ids and names', () => {
    expect(RECIPE_BANK.length).toBeGreaterThanOrEqual(30);
    expect(new Set(RECIPE_BANK.map((r) => r.id)).size).toBe(RECIPE_BANK.length);
    expect(new Set(RECIPE_BANK.map((r) => r.name)).size).toBe(RECIPE_BANK.length);
    for (const recipe of RECIPE_BANK) {
      expect(recipe.id).toMatch(/^(bk|ln|sn|dn|ps)-[a-z0-9-]+$/);
      expect(recipeById(recipe.id)).toBe(recipe);
    }
  });

  it('gives every recipe real ingredients, steps and plausible per-serving macros', () => {
    for (const recipe of RECIPE_BANK) {
      expect(recipe.ingredients.length, recipe.id).toBeGreaterThanOrEqual(2);
      expect(recipe.instructions.length, recipe.id).toBeGreaterThanOrEqual(1);
      expect(recipe.slots.length, recipe.id).toBeGreaterThanOrEqual(1);
      for (const ingredient of recipe.ingredients) {
        expect(FOOD_TABLE[ingredient.food], `${recipe.id}: ${ingredient.food}`).toBeDefined();
        expect(ingredient.amount_g).toBeGreaterThan(0);
      }
      const macros = macrosOf(recipe.ingredients);
      expect(macros.calories, recipe.id).toBeGreaterThanOrEqual(100);
      expect(macros.calories, recipe.id).toBeLessThanOrEqual(1000);
      expect(macros.protein_g, recipe.id).toBeGreaterThanOrEqual(8);
      expect(macros.calories).toBeCloseTo(4 * macros.protein_g + 4 * macros.carbs_g + 9 * macros.fat_g, 6);
    }
  });

  it('covers every slot with several recipes', () => {
    for (const slot of MEAL_SLOTS) {
      expect(RECIPE_BANK.filter((r) => r.slots.includes(slot)).length, slot).toBeGreaterThanOrEqual(6);
    }
  });

  it('lets every recipe be told apart by its protein and cuisine, as a plan names it (§4.4)', () => {
    const keys = RECIPE_BANK.map((r) => `${normalizeFoodWord(r.primary_protein)}|${normalizeFoodWord(r.cuisine)}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('fits every recipe in the time an advanced cook has for at least one of its slots', () => {
    for (const recipe of RECIPE_BANK) {
      const fits = recipe.slots.some((slot) => totalMinutes(recipe) <= PREP_TIME_CAPS.advanced[slot]);
      expect(fits, recipe.id).toBe(true);
    }
  });
});

describe('recipe eligibility', () => {
  it('contains nut-butter recipes that no client is ever offered (§4.1)', () => {
    const nutButter = RECIPE_BANK.filter((r) =>
      r.ingredients.some((i) => i.food.endsWith('_butter') && i.food !== 'butter'),
    );
    expect(nutButter.length).toBeGreaterThanOrEqual(2);
    for (const slot of MEAL_SLOTS) {
      const offered = eligibleRecipes(requirements({ slot }));
      expect(offered.filter((r) => nutButter.includes(r))).toEqual([]);
    }
  });

  it('excludes a recipe with any averted ingredient', () => {
    const bolognese = recipeById('dn-spaghetti-bolognese')!;
    expect(recipeHasAvertedFood(bolognese, aversionSet(['beef']))).toBe(true);
    expect(recipeHasAvertedFood(bolognese, aversionSet(['gluten']))).toBe(true);
    expect(recipeHasAvertedFood(bolognese, aversionSet(['fish']))).toBe(false);
    expect(isRecipeEligible(bolognese, requirements({ aversions: aversionSet(['dairy']) }))).toBe(false);
  });

  it('caps difficulty, time and slot, and asks for shareable dinners when the partner eats too', () => {
    const tikka = recipeById('dn-chicken-tikka-masala')!;
    expect(isRecipeEligible(tikka, requirements())).toBe(true);
    expect(isRecipeEligible(tikka, requirements({ maxDifficulty: 'intermediate' }))).toBe(false);
    expect(isRecipeEligible(tikka, requirements({ maxMinutes: totalMinutes(tikka) - 1 }))).toBe(false);
    expect(isRecipeEligible(tikka, requirements({ slot: 'breakfast' }))).toBe(false);
    const wrap = recipeById('ln-turkey-hummus-wrap')!;
    expect(isRecipeEligible(wrap, requirements({ slot: 'lunch' }))).toBe(true);
    const shared = eligibleRecipes(requirements({ sharedDinner: true }));
    expect(shared.length).toBeGreaterThan(0);
    expect(shared.every((r) => r.traits.includes('shareable'))).toBe(true);
  });

  it('leaves a basic cook simple recipes in every slot', () => {
    for (const slot of MEAL_SLOTS) {
      const offered = eligibleRecipes(
        requirements({ slot, maxDifficulty: 'basic', maxMinutes: PREP_TIME_CAPS.basic[slot] }),
      );
      expect(offered.length, slot).toBeGreaterThanOrEqual(3);
      expect(offered.every((r) => r.difficulty === 'basic' && totalMinutes(r) <= PREP_TIME_CAPS.basic[slot])).toBe(
        true,
      );
    }
  });
});
