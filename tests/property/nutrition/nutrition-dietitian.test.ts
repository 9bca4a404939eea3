import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectRank3Conflict } from '../../../actors/nutrition/conflicts.ts';
import { buildWeeklyMealPlan } from '../../../actors/nutrition/dietitian/dietitian.ts';
import type { DietitianRerunReason } from '../../../actors/nutrition/dietitian/dietitian.ts';
import { DietitianPlanningError } from '../../../actors/nutrition/dietitian/dietitian-planning-error.ts';
import { WEEKDAYS } from '../../../actors/nutrition/dietitian/dietitian-rotation.ts';
import { MEAL_SLOTS, PREP_TIME_CAPS } from '../../../actors/nutrition/dietitian/dietitian-slot-specs.ts';
import { aversionSet } from '../../../actors/nutrition/food/food-aversions.ts';
import { recipeHasAvertedFood } from '../../../actors/nutrition/recipes/recipe-bank-eligibility.ts';
import { DIFFICULTY_RANK, totalMinutes } from '../../../actors/nutrition/recipes/recipe-bank-entry.ts';
import { recipeById } from '../../../actors/nutrition/recipes/recipe-bank.ts';
import { scaleRecipe } from '../../../actors/nutrition/recipes/chef-scaling.ts';
import { WeeklyMealPlanSchema } from '../../../protocol/nutrition/weekly-meal-plan.ts';
import { clientArb, strategyArb } from '../../support/nutrition/dietitian-fixtures.ts';
import { planRecipeIds, servedRecipe, servedRecipeIds, weekTotals } from '../../support/nutrition/meal-plan-helpers.ts';

const NUM_RUNS = 200;

/** No reason (half the runs), or a §10 re-run reason that changes the plan itself. */
const reasonArb = fc.option(
  fc.oneof(
    fc.constant<DietitianRerunReason>({ trigger: 'compliance_issue' }),
    fc
      .constantFrom('follicular', 'luteal')
      .map((phase): DietitianRerunReason => ({ trigger: 'cycle_phase_adjustment', cycle_phase: phase })),
  ),
  { nil: undefined, freq: 2 },
);
const SIMPLER = { basic: 'basic', intermediate: 'basic', advanced: 'intermediate' } as const;

describe('DIETITIAN over realistic strategies and clients', () => {
  it('plans a valid week that adds up, honours the client and can be cooked, or says why not', () => {
    let planned = 0;
    let refused = 0;
    fc.assert(
      fc.property(
        strategyArb,
        clientArb,
        fc.integer({ min: 0, max: 30 }),
        reasonArb,
        (strategy, client, weeks, reason) => {
          let plan;
          try {
            plan = buildWeeklyMealPlan(strategy, {
              client_constraints: client,
              weeks_on_program: weeks,
              ...(reason ? { rerun_reason: reason } : {}),
            });
          } catch (error) {
            // Only a real dead end may stop the plan: a slot no recipe can fill for this client.
            expect(error).toBeInstanceOf(DietitianPlanningError);
            expect((error as Error).message).toMatch(/No recipe fits the \w+ slot/);
            expect(client.food_aversions.length).toBeGreaterThan(2);
            refused += 1;
            return;
          }
          planned += 1;
          expect(() => WeeklyMealPlanSchema.parse(plan)).not.toThrow();

          // §8 rank 3: weekly totals within 5 % of 7 x the daily targets (here: to 0.1 %).
          const week = weekTotals(plan);
          const daily = {
            calories: strategy.target_intake_kcal,
            protein_g: strategy.protein_g,
            carbs_g: strategy.carbs_g,
            fat_g: strategy.fat_g,
          };
          for (const key of ['calories', 'protein_g', 'carbs_g', 'fat_g'] as const) {
            expect(Math.abs(week[key] - 7 * daily[key]) / (7 * daily[key]), key).toBeLessThanOrEqual(0.001);
          }
          expect(detectRank3Conflict(strategy, plan)).toEqual([]);

          // Protein follows the distribution (rescaled to protein_g).
          const distributed = MEAL_SLOTS.reduce((sum, slot) => sum + strategy.protein_distribution[`${slot}_g`], 0);
          for (const slot of ['breakfast', 'lunch', 'presleep'] as const) {
            const expected = (strategy.protein_distribution[`${slot}_g`] * strategy.protein_g) / distributed;
            expect(Math.abs(plan.weekly_template.monday![slot]!.slot_spec.protein_g - expected)).toBeLessThanOrEqual(
              0.051,
            );
          }

          // Every recipe named honours aversions (nut butters always), skill and time caps; a
          // compliance re-run plans one skill level lower.
          const averted = aversionSet(client.food_aversions);
          const skill = reason?.trigger === 'compliance_issue' ? SIMPLER[client.cooking_skill] : client.cooking_skill;
          for (const id of planRecipeIds(plan)) {
            const recipe = recipeById(id)!;
            expect(recipeHasAvertedFood(recipe, averted), id).toBe(false);
            expect(DIFFICULTY_RANK[recipe.difficulty]).toBeLessThanOrEqual(DIFFICULTY_RANK[skill]);
          }
          const servedIds = servedRecipeIds(plan);
          for (const day of WEEKDAYS) {
            for (const slot of MEAL_SLOTS) {
              const slotPlan = plan.weekly_template[day]![slot]!;
              expect(slotPlan.slot_spec.prep_time_max_min).toBe(PREP_TIME_CAPS[skill][slot]);
              for (const id of slotPlan.alternatives) {
                expect(totalMinutes(recipeById(id)!)).toBeLessThanOrEqual(slotPlan.slot_spec.prep_time_max_min);
                if (client.partner_cooks && slot === 'dinner') expect(recipeById(id)!.traits).toContain('shareable');
              }
              // The served recipe is the slot's first alternative (named by its scaling when slot
              // types share it) and scales to its spec (§8 rank 4).
              const served = servedRecipe(slotPlan, slot);
              expect(slotPlan.alternatives[0], `${day} ${slot}`).toBe(servedIds[day][slot]);
              expect(scaleRecipe(served, slotPlan.slot_spec, averted)).toBeDefined();
            }
          }
        },
      ),
      { numRuns: NUM_RUNS },
    );
    // Dead ends must stay rare: at most two extra aversions are generated.
    expect(refused).toBeLessThanOrEqual(NUM_RUNS * 0.05);
    expect(planned).toBeGreaterThan(0);
  });
});
