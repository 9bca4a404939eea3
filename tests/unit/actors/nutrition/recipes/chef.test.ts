import { describe, expect, it } from 'vitest';
import { buildRecipes } from '../../../../../actors/nutrition/recipes/chef.ts';
import { recipeDeviation, SLOT_SPEC_TOLERANCE } from '../../../../../actors/nutrition/recipes/chef-recipe-deviation.ts';
import { ChefScalingError } from '../../../../../actors/nutrition/recipes/chef-scaling-error.ts';
import { buildWeeklyMealPlan } from '../../../../../actors/nutrition/dietitian/dietitian.ts';
import { PREP_TIME_CAPS } from '../../../../../actors/nutrition/dietitian/dietitian-slot-specs.ts';
import { aversionSet, isFoodAverted } from '../../../../../actors/nutrition/food/food-aversions.ts';
import { allFoodIds, foodIdByName } from '../../../../../actors/nutrition/food/food-macros.ts';
import { FOOD_TABLE } from '../../../../../actors/nutrition/food/food-table.ts';
import { totalMinutes } from '../../../../../actors/nutrition/recipes/recipe-bank-entry.ts';
import { recipeById } from '../../../../../actors/nutrition/recipes/recipe-bank.ts';
import type { ClientConstraints } from '../../../../../protocol/nutrition/macro-targets.ts';
import { RecipesSchema } from '../../../../../protocol/nutrition/recipes.ts';
import type { WeeklyMealPlan } from '../../../../../protocol/nutrition/weekly-meal-plan.ts';
import { detectRank4Conflict } from '../../../../../actors/nutrition/conflicts.ts';
import { clientOf, EXAMPLE_STRATEGY, strategyOf } from '../../../../support/nutrition/dietitian-fixtures.ts';
import { answeredSlots, recomputedMacros } from '../../../../support/nutrition/recipe-helpers.ts';

const planFor = (client: Partial<ClientConstraints> = {}) =>
  buildWeeklyMealPlan(EXAMPLE_STRATEGY, { client_constraints: clientOf(client), weeks_on_program: 1 });

describe('buildRecipes', () => {
  const client = clientOf();
  const plan = planFor();
  const { recipes } = buildRecipes(plan, { client_constraints: client });

  it('returns valid recipes, one per distinct slot spec and recipe, covering all 35 slots once', () => {
    expect(() => RecipesSchema.parse({ recipes })).not.toThrow();
    expect(recipes.length).toBeLessThan(35);
    const covered = recipes.flatMap((recipe) => answeredSlots(recipe, plan).map(({ day, slot }) => `${day}.${slot}`));
    expect(covered.length).toBe(35);
    expect(new Set(covered).size).toBe(35);
    expect(new Set(recipes.map((r) => r.recipe_name)).size).toBe(recipes.length);
    expect(new Set(recipes.map((r) => r.recipe_id)).size).toBe(recipes.length);
  });

  it('meets every slot spec it answers within 10 % on protein, carbs, fat and calories (§8 rank 4)', () => {
    for (const recipe of recipes) {
      for (const { day, slot } of answeredSlots(recipe, plan)) {
        const deviation = recipeDeviation(recipe, plan.weekly_template[day]![slot]!.slot_spec);
        expect(deviation.max, `${recipe.recipe_name}`).toBeLessThanOrEqual(SLOT_SPEC_TOLERANCE);
      }
    }
  });

  it("serves the recipe the plan assigned: id first in the slot's alternatives, same protein and cuisine", () => {
    for (const recipe of recipes) {
      for (const { day, slot } of answeredSlots(recipe, plan)) {
        const slotPlan = plan.weekly_template[day]![slot]!;
        expect(slotPlan.alternatives[0]).toBe(recipe.recipe_id);
        expect(recipe.cuisine).toBe(slotPlan.cuisine_theme);
      }
    }
  });

  it('reports macros that follow from its ingredients and the food table', () => {
    for (const recipe of recipes) {
      const recomputed = recomputedMacros(recipe);
      for (const key of ['protein_g', 'carbs_g', 'fat_g', 'fiber_g'] as const) {
        expect(
          Math.abs(recomputed[key] - recipe.macros_per_serving[key]),
          `${recipe.recipe_name} ${key}`,
        ).toBeLessThanOrEqual(0.11);
      }
      expect(Math.abs(recomputed.calories - recipe.macros_per_serving.calories)).toBeLessThanOrEqual(1);
    }
  });

  it('never reintroduces an averted food, adjusters and boosts included', () => {
    const aversions = ['dairy', 'gluten'];
    const strict = buildRecipes(planFor({ food_aversions: aversions }), {
      client_constraints: clientOf({ food_aversions: aversions }),
    });
    const averted = aversionSet(aversions);
    const avertedNames = allFoodIds()
      .filter((id) => isFoodAverted(id, averted))
      .map((id) => FOOD_TABLE[id].name);
    expect(avertedNames).toContain('whey protein isolate');
    for (const recipe of strict.recipes) {
      for (const ingredient of recipe.ingredients) {
        expect(isFoodAverted(foodIdByName(ingredient.item)!, averted), ingredient.item).toBe(false);
      }
      for (const option of recipe.calorie_boost_options) {
        for (const name of avertedNames) expect(option, recipe.recipe_name).not.toContain(name);
      }
    }
  });

  it('keeps nut butters out even when it is given no client constraints', () => {
    const text = JSON.stringify(buildRecipes(plan)).toLowerCase();
    expect(text).not.toContain('peanut');
    expect(text).not.toContain('almond butter');
  });

  it('gives a basic cook only basic recipes within the slot time caps', () => {
    const basicPlan = planFor({ cooking_skill: 'basic' });
    for (const recipe of buildRecipes(basicPlan, { client_constraints: clientOf({ cooking_skill: 'basic' }) })
      .recipes) {
      const bank = recipeById(recipe.recipe_id!)!;
      expect(bank.difficulty, recipe.recipe_name).toBe('basic');
      for (const { slot } of answeredSlots(recipe, basicPlan)) {
        expect(recipe.time.prep_min + recipe.time.cook_min).toBeLessThanOrEqual(PREP_TIME_CAPS.basic[slot]);
        expect(totalMinutes(bank)).toBeLessThanOrEqual(PREP_TIME_CAPS.basic[slot]);
      }
    }
  });

  it('cooks shared dinners for two when the partner cooks, per-serving macros unchanged', () => {
    const sharedPlan = planFor({ partner_cooks: true });
    const shared = buildRecipes(sharedPlan, { client_constraints: clientOf({ partner_cooks: true }) }).recipes;
    const dinners = shared.filter((r) => answeredSlots(r, sharedPlan).some(({ slot }) => slot === 'dinner'));
    expect(dinners.length).toBeGreaterThan(0);
    for (const dinner of dinners) {
      expect(dinner.servings).toBe(2);
      expect(dinner.batch_notes).toMatch(/partner/);
      expect(dinner.instructions.at(-1)).toMatch(/partner/);
    }
    for (const other of shared.filter((r) => !dinners.includes(r))) expect(other.servings).toBe(1);
    for (const recipe of recipes) expect(recipe.servings).toBe(1);
  });

  it('offers a drink first as a calorie boost for a low appetite, with honest kcal', () => {
    const lowPlan = planFor({ appetite_level: 'low' });
    for (const recipe of buildRecipes(lowPlan, { client_constraints: clientOf({ appetite_level: 'low' }) }).recipes) {
      expect(recipe.calorie_boost_options[0]).toBe('250 g whole milk, as a drink alongside (+154 kcal)');
    }
  });

  it('fails with ChefScalingError when no recipe can meet a slot spec', () => {
    const impossible: WeeklyMealPlan = structuredClone(plan);
    const snack = impossible.weekly_template.wednesday!.snack!;
    snack.slot_spec = { ...snack.slot_spec, protein_g: 60, carbs_g: 0, fat_g: 0, calories: 240 };
    expect(() => buildRecipes(impossible, { client_constraints: client })).toThrow(ChefScalingError);
    try {
      buildRecipes(impossible, { client_constraints: client });
    } catch (error) {
      expect((error as ChefScalingError).day).toBe('wednesday');
      expect((error as ChefScalingError).slot).toBe('snack');
      expect((error as ChefScalingError).tried.length).toBeGreaterThan(0);
      expect((error as ChefScalingError).message).toMatch(/Re-run the DIETITIAN/);
    }
  });

  it('complies with a §8 rank-4 constraint: the authoritative plan and a tighter tolerance', () => {
    const other = planFor({ appetite_level: 'high' });
    const result = buildRecipes(plan, {
      client_constraints: client,
      constraint: { meal_plan: other, max_deviation: 0.03 },
    });
    for (const recipe of result.recipes) {
      for (const { day, slot } of answeredSlots(recipe, other)) {
        expect(recipeDeviation(recipe, other.weekly_template[day]![slot]!.slot_spec).max).toBeLessThanOrEqual(0.03);
      }
    }
  });

  it('keeps a previous recipe that still meets its spec, and rebuilds the rest (§10 rule 2)', () => {
    const previous = structuredClone({ recipes });
    previous.recipes[0]!.batch_notes = 'kept from last week';
    const kept = buildRecipes(plan, { client_constraints: client, previous_output: previous });
    expect(kept.recipes[0]!.batch_notes).toBe('kept from last week');
    const changed: WeeklyMealPlan = structuredClone(plan);
    for (const day of Object.values(changed.weekly_template)) {
      day.breakfast!.slot_spec.protein_g += 5;
      day.breakfast!.slot_spec.calories += 20;
    }
    const rebuilt = buildRecipes(changed, { client_constraints: client, previous_output: previous });
    expect(rebuilt.recipes[0]!.batch_notes).not.toBe('kept from last week');
    const invalid = buildRecipes(plan, {
      client_constraints: client,
      previous_output: previous,
      validation_issues: [{ path: 'recipes', message: 'x' }],
    });
    expect(invalid.recipes[0]!.batch_notes).not.toBe('kept from last week');
  });

  it('names each scaling of a recipe that two slot types share, so the plan and the recipes agree (§8 rank 4)', () => {
    // Found by the CHEF property (seed 1461051126): one dairy- and gluten-free drink is all the
    // snack and the pre-sleep slots have, each with its own spec.
    const strategy = {
      ...strategyOf(1600, 72),
      fat_g: 53,
      carbs_g: 209,
      protein_distribution: { breakfast_g: 16, lunch_g: 18, snack_g: 9, dinner_g: 18, presleep_g: 11 },
    };
    const narrow = clientOf({ food_aversions: ['dairy', 'gluten'], appetite_level: 'high', cooking_skill: 'basic' });
    const shared = buildWeeklyMealPlan(strategy, { client_constraints: narrow, weeks_on_program: 3 });
    const monday = shared.weekly_template.monday!;
    expect(monday.snack!.alternatives).toEqual(['ps-pea-protein-berry-shake']);
    expect(monday.presleep!.alternatives).toEqual(['ps-pea-protein-berry-shake#2']);
    const output = buildRecipes(shared, { client_constraints: narrow });
    for (const recipe of output.recipes) {
      for (const { day, slot } of answeredSlots(recipe, shared)) {
        expect(shared.weekly_template[day]![slot]!.alternatives[0]).toBe(recipe.recipe_id);
      }
    }
    expect(detectRank4Conflict(shared, output)).toEqual([]);
  });

  it('is deterministic', () => {
    expect(buildRecipes(plan, { client_constraints: client })).toEqual({ recipes });
  });
});
