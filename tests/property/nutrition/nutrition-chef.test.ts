import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildRecipes } from '../../../actors/nutrition/recipes/chef.ts';
import { recipeDeviation, SLOT_SPEC_TOLERANCE } from '../../../actors/nutrition/recipes/chef-recipe-deviation.ts';
import { detectRank4Conflict } from '../../../actors/nutrition/conflicts.ts';
import { buildWeeklyMealPlan } from '../../../actors/nutrition/dietitian/dietitian.ts';
import { DietitianPlanningError } from '../../../actors/nutrition/dietitian/dietitian-planning-error.ts';
import { aversionSet, isFoodAverted } from '../../../actors/nutrition/food/food-aversions.ts';
import { foodIdByName } from '../../../actors/nutrition/food/food-macros.ts';
import { DIFFICULTY_RANK } from '../../../actors/nutrition/recipes/recipe-bank-entry.ts';
import { recipeById } from '../../../actors/nutrition/recipes/recipe-bank.ts';
import { RecipesSchema } from '../../../protocol/nutrition/recipes.ts';
import { clientArb, strategyArb } from '../../support/nutrition/dietitian-fixtures.ts';
import { answeredSlots, recomputedMacros } from '../../support/nutrition/recipe-helpers.ts';

// Each run builds a plan and its recipes (about 0.1 s), so fewer runs than the DIETITIAN's.
const NUM_RUNS = 120;

describe('CHEF over the DIETITIAN plans of realistic strategies and clients', () => {
  it("answers every slot with a valid recipe within 10 % of its spec, from the client's foods only", () => {
    fc.assert(
      fc.property(strategyArb, clientArb, (strategy, client) => {
        let plan;
        try {
          plan = buildWeeklyMealPlan(strategy, { client_constraints: client, weeks_on_program: 3 });
        } catch (error) {
          if (error instanceof DietitianPlanningError) return; // covered by the DIETITIAN property
          throw error;
        }
        const output = buildRecipes(plan, { client_constraints: client });
        expect(() => RecipesSchema.parse(output)).not.toThrow();
        expect(detectRank4Conflict(plan, output)).toEqual([]);

        const averted = aversionSet(client.food_aversions);
        let answered = 0;
        for (const recipe of output.recipes) {
          const slots = answeredSlots(recipe, plan);
          answered += slots.length;
          for (const { day, slot } of slots) {
            const slotPlan = plan.weekly_template[day]![slot]!;
            expect(recipeDeviation(recipe, slotPlan.slot_spec).max, recipe.recipe_name).toBeLessThanOrEqual(
              SLOT_SPEC_TOLERANCE,
            );
            // The plan names the scaling this slot gets, so the conflict check looks up this one.
            expect(slotPlan.alternatives[0], `${day} ${slot}`).toBe(recipe.recipe_id);
          }
          const recomputed = recomputedMacros(recipe);
          expect(Math.abs(recomputed.protein_g - recipe.macros_per_serving.protein_g)).toBeLessThanOrEqual(0.11);
          expect(Math.abs(recomputed.calories - recipe.macros_per_serving.calories)).toBeLessThanOrEqual(1);
          for (const ingredient of recipe.ingredients) {
            expect(isFoodAverted(foodIdByName(ingredient.item)!, averted), ingredient.item).toBe(false);
          }
          const bank = recipeById(recipe.recipe_id!)!;
          expect(DIFFICULTY_RANK[bank.difficulty]).toBeLessThanOrEqual(DIFFICULTY_RANK[client.cooking_skill]);
          expect(recipe.servings).toBe(client.partner_cooks && slots[0]!.slot === 'dinner' ? 2 : 1);
        }
        expect(answered).toBe(35);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
