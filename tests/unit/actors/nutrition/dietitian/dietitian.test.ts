import { describe, expect, it } from 'vitest';
import { candidateRecipes } from '../../../../../actors/nutrition/recipes/chef-recipe-picker.ts';
import { buildWeeklyMealPlan } from '../../../../../actors/nutrition/dietitian/dietitian.ts';
import type { DietitianConstraint, DietitianContext } from '../../../../../actors/nutrition/dietitian/dietitian.ts';
import { DietitianPlanningError } from '../../../../../actors/nutrition/dietitian/dietitian-planning-error.ts';
import { WEEKDAYS } from '../../../../../actors/nutrition/dietitian/dietitian-rotation.ts';
import { parseSlotConstraints } from '../../../../../actors/nutrition/dietitian/dietitian-slot-constraints.ts';
import { MEAL_SLOTS, PREP_TIME_CAPS } from '../../../../../actors/nutrition/dietitian/dietitian-slot-specs.ts';
import { slotRequirements } from '../../../../../actors/nutrition/recipes/recipe-bank-eligibility.ts';
import { totalMinutes } from '../../../../../actors/nutrition/recipes/recipe-bank-entry.ts';
import { recipeById } from '../../../../../actors/nutrition/recipes/recipe-bank.ts';
import type { ClientConstraints } from '../../../../../protocol/nutrition/macro-targets.ts';
import { WeeklyMealPlanSchema } from '../../../../../protocol/nutrition/weekly-meal-plan.ts';
import type { MealSlot, WeeklyMealPlan } from '../../../../../protocol/nutrition/weekly-meal-plan.ts';
import { clientOf, EXAMPLE_STRATEGY, strategyOf } from '../../../../support/nutrition/dietitian-fixtures.ts';
import { planRecipeIds, servedRecipe, weekTotals } from '../../../../support/nutrition/meal-plan-helpers.ts';

const context = (client: Partial<ClientConstraints> = {}, rest: Partial<DietitianContext> = {}): DietitianContext => ({
  client_constraints: clientOf(client),
  weeks_on_program: 0,
  ...rest,
});

describe('buildWeeklyMealPlan', () => {
  const plan = buildWeeklyMealPlan(EXAMPLE_STRATEGY, context());

  it('returns a valid weekly_meal_plan with all 7 days x 5 slots', () => {
    expect(() => WeeklyMealPlanSchema.parse(plan)).not.toThrow();
    expect(Object.keys(plan.weekly_template)).toEqual([...WEEKDAYS]);
    for (const day of WEEKDAYS) expect(Object.keys(plan.weekly_template[day]!)).toEqual([...MEAL_SLOTS]);
    expect(Object.keys(plan.substitution_bank)).toEqual([...MEAL_SLOTS]);
  });

  it('adds up to 7 x the daily targets, to the tenth (§8 rank 3 allows 5 %)', () => {
    const week = weekTotals(plan);
    expect(week.calories).toBeCloseTo(7 * EXAMPLE_STRATEGY.target_intake_kcal, 0);
    expect(week.protein_g).toBeCloseTo(7 * EXAMPLE_STRATEGY.protein_g, 0);
    expect(week.carbs_g).toBeCloseTo(7 * EXAMPLE_STRATEGY.carbs_g, 0);
    expect(week.fat_g).toBeCloseTo(7 * EXAMPLE_STRATEGY.fat_g, 0);
  });

  it('gives each slot the protein of the strategy distribution', () => {
    for (const day of WEEKDAYS) {
      for (const slot of MEAL_SLOTS) {
        expect(plan.weekly_template[day]![slot]!.slot_spec.protein_g).toBe(
          EXAMPLE_STRATEGY.protein_distribution[`${slot}_g`],
        );
      }
    }
  });

  it('rescales a distribution that does not sum to protein_g (§8 rank 2: the total wins)', () => {
    const strategy = {
      ...EXAMPLE_STRATEGY,
      protein_distribution: { breakfast_g: 40, lunch_g: 50, snack_g: 20, dinner_g: 50, presleep_g: 30 },
    };
    const day = buildWeeklyMealPlan(strategy, context()).weekly_template.monday!;
    expect(day.breakfast!.slot_spec.protein_g).toBe(20);
    expect(day.lunch!.slot_spec.protein_g).toBe(25);
    expect(MEAL_SLOTS.reduce((sum, slot) => sum + day[slot]!.slot_spec.protein_g, 0)).toBeCloseTo(95, 6);
  });

  it('makes each slot spec self-consistent: calories within 2 % of its macros', () => {
    for (const slot of MEAL_SLOTS) {
      const spec = plan.weekly_template.monday![slot]!.slot_spec;
      const atwater = 4 * spec.protein_g + 4 * spec.carbs_g + 9 * spec.fat_g;
      expect(Math.abs(atwater - spec.calories) / spec.calories, slot).toBeLessThan(0.02);
    }
  });

  it('names only recipes the CHEF will serve for the slot: primary first, then substitutes', () => {
    for (const day of WEEKDAYS) {
      for (const slot of MEAL_SLOTS) {
        const slotPlan = plan.weekly_template[day]![slot]!;
        const served = servedRecipe(slotPlan, slot);
        expect(slotPlan.alternatives[0]).toBe(served.id);
        expect(slotPlan.primary_protein).toBe(served.primary_protein);
        expect(slotPlan.cuisine_theme).toBe(served.cuisine);
        expect(new Set(slotPlan.alternatives).size).toBe(slotPlan.alternatives.length);
      }
    }
  });

  it('never lists in one slot type a recipe served in another (so each id names one scaling)', () => {
    const servedBy = new Map<string, Set<MealSlot>>();
    for (const day of WEEKDAYS) {
      for (const slot of MEAL_SLOTS) {
        const id = servedRecipe(plan.weekly_template[day]![slot]!, slot).id;
        servedBy.set(id, (servedBy.get(id) ?? new Set()).add(slot));
      }
    }
    for (const [id, slots] of servedBy) expect(slots.size, id).toBe(1);
    for (const day of WEEKDAYS) {
      for (const slot of MEAL_SLOTS) {
        for (const id of plan.weekly_template[day]![slot]!.alternatives) {
          const elsewhere = servedBy.get(id);
          if (elsewhere) expect([...elsewhere]).toEqual([slot]);
        }
      }
    }
  });

  it('varies recipes over the week and batches lunches', () => {
    const lunches = WEEKDAYS.map((day) => plan.weekly_template[day]!.lunch!.primary_protein);
    expect(lunches[0]).toBe(lunches[1]);
    expect(lunches[1]).toBe(lunches[2]);
    expect(
      new Set(WEEKDAYS.map((day) => servedRecipe(plan.weekly_template[day]!.dinner!, 'dinner').id)).size,
    ).toBeGreaterThanOrEqual(3);
  });

  it('never names peanut butter or a nut butter, nor a recipe containing one (§4.1)', () => {
    const text = JSON.stringify(plan).toLowerCase();
    expect(text).not.toMatch(/peanut-butter|bk-peanut|almond-butter|thai-peanut/);
    for (const id of planRecipeIds(plan)) {
      const foods = recipeById(id)!.ingredients.map((i) => i.food);
      expect(foods, id).not.toContain('peanut_butter');
      expect(foods, id).not.toContain('almond_butter');
    }
    const constraints = plan.weekly_template.monday!.breakfast!.slot_spec.constraints;
    expect(constraints).toContain('avoid:peanut_butter');
    expect(constraints).toContain('avoid:nut_butter');
  });

  it('honours any aversion in every recipe it names', () => {
    const dairyFree = buildWeeklyMealPlan(EXAMPLE_STRATEGY, context({ food_aversions: ['dairy'] }));
    for (const id of planRecipeIds(dairyFree)) {
      const foods = recipeById(id)!.ingredients.map((i) => i.food);
      for (const dairy of [
        'whole_milk',
        'greek_yogurt',
        'cheddar',
        'whey_isolate',
        'casein',
        'butter',
        'feta',
      ] as const) {
        expect(foods, id).not.toContain(dairy);
      }
    }
  });

  it('gives a basic cook only basic recipes within the basic time caps', () => {
    const basic = buildWeeklyMealPlan(EXAMPLE_STRATEGY, context({ cooking_skill: 'basic' }));
    for (const slot of MEAL_SLOTS) {
      const spec = basic.weekly_template.monday![slot]!.slot_spec;
      expect(spec.prep_time_max_min).toBe(PREP_TIME_CAPS.basic[slot]);
      expect(spec.constraints).toContain('max_difficulty:basic');
      for (const id of [...basic.substitution_bank[slot]!, ...basic.weekly_template.monday![slot]!.alternatives]) {
        const recipe = recipeById(id)!;
        expect(recipe.difficulty, id).toBe('basic');
        expect(totalMinutes(recipe), id).toBeLessThanOrEqual(PREP_TIME_CAPS.basic[slot]);
      }
    }
    const advanced = buildWeeklyMealPlan(EXAMPLE_STRATEGY, context({ cooking_skill: 'advanced' }));
    expect(planRecipeIds(advanced).some((id) => recipeById(id)!.difficulty !== 'basic')).toBe(true);
  });

  it('shares dinners when the partner cooks, and plans batch dinners otherwise', () => {
    const shared = buildWeeklyMealPlan(EXAMPLE_STRATEGY, context({ partner_cooks: true }));
    const solo = buildWeeklyMealPlan(EXAMPLE_STRATEGY, context({ partner_cooks: false }));
    for (const day of WEEKDAYS) {
      const dinner = shared.weekly_template[day]!.dinner!;
      expect(parseSlotConstraints(dinner.slot_spec.constraints).sharedDinner).toBe(true);
      for (const id of dinner.alternatives) expect(recipeById(id)!.traits, id).toContain('shareable');
      expect(parseSlotConstraints(solo.weekly_template[day]!.dinner!.slot_spec.constraints).sharedDinner).toBe(false);
      expect(parseSlotConstraints(shared.weekly_template[day]!.lunch!.slot_spec.constraints).sharedDinner).toBe(false);
    }
    expect(servedRecipe(solo.weekly_template.monday!.dinner!, 'dinner').traits).toContain('batch_friendly');
    expect(shared.solo_week_protocol.description).toMatch(/partner/);
    expect(solo.solo_week_protocol.description).not.toMatch(/partner/);
    for (const id of shared.solo_week_protocol.recipe_ids) expect(recipeById(id)!.slots).toContain('dinner');
  });

  it('gives a low appetite drinkable snacks and pre-sleep meals and more even meals', () => {
    const low = buildWeeklyMealPlan(EXAMPLE_STRATEGY, context({ appetite_level: 'low' }));
    const normal = buildWeeklyMealPlan(EXAMPLE_STRATEGY, context({ appetite_level: 'normal' }));
    for (const slot of ['snack', 'presleep'] as const) {
      const spec = low.weekly_template.monday![slot]!.slot_spec;
      expect(parseSlotConstraints(spec.constraints).liquidPreferred).toBe(true);
      expect(servedRecipe(low.weekly_template.monday![slot]!, slot).traits, slot).toContain('liquid');
    }
    expect(low.weekly_template.monday!.dinner!.slot_spec.calories).toBeLessThan(
      normal.weekly_template.monday!.dinner!.slot_spec.calories,
    );
    expect(low.weekly_template.monday!.snack!.slot_spec.calories).toBeGreaterThan(
      normal.weekly_template.monday!.snack!.slot_spec.calories,
    );
  });

  it('writes the fallback protocols from the targets', () => {
    expect(plan.emergency_protocol.calories).toBe(Math.round(2400 * 0.8));
    expect(plan.emergency_protocol.protein_g).toBe(Math.round(95 * 0.9));
    expect(plan.emergency_protocol.meals.length).toBeGreaterThanOrEqual(1);
    expect(plan.tracking_protocol.weeks_1_4).toMatch(/^CURRENT/);
    const later = buildWeeklyMealPlan(EXAMPLE_STRATEGY, context({}, { weeks_on_program: 6 }));
    expect(later.tracking_protocol.weeks_5_plus).toMatch(/^CURRENT \(week 7\)/);
    expect(later.tracking_protocol.weeks_1_4).not.toMatch(/CURRENT/);
  });

  it('complies exactly with a §8 rank-3 constraint from the NUTRITIONIST', () => {
    const constraint = { target_intake_kcal: 2600, carbs_g: 386 };
    const week = weekTotals(buildWeeklyMealPlan(EXAMPLE_STRATEGY, context({}, { constraint })));
    expect(week.calories).toBeCloseTo(7 * 2600, 0);
    expect(week.carbs_g).toBeCloseTo(7 * 386, 0);
    expect(week.protein_g).toBeCloseTo(7 * 95, 0);
  });

  it('takes only the known numeric fields of a constraint, which arrives as untyped data', () => {
    const constraint = {
      protein_distribution: { breakfast_g: 30, lunch_g: 20, snack_g: 10, dinner_g: 20, presleep_g: 15 },
      fat_g: 'lots',
      extra: 1,
    } as unknown as DietitianConstraint;
    const constrained = buildWeeklyMealPlan(EXAMPLE_STRATEGY, context({}, { constraint }));
    expect(constrained.weekly_template.monday!.breakfast!.slot_spec.protein_g).toBe(30);
    expect(weekTotals(constrained).fat_g).toBeCloseTo(7 * EXAMPLE_STRATEGY.fat_g, 0);
  });

  it('simplifies the week after a compliance issue (§10: more than 2 minimum viable days)', () => {
    const usual = buildWeeklyMealPlan(EXAMPLE_STRATEGY, context({ cooking_skill: 'advanced' }));
    const simpler = buildWeeklyMealPlan(
      EXAMPLE_STRATEGY,
      context({ cooking_skill: 'advanced' }, { previous_output: usual, rerun_reason: { trigger: 'compliance_issue' } }),
    );
    expect(simpler).not.toEqual(usual);
    for (const slot of MEAL_SLOTS) {
      const spec = simpler.weekly_template.monday![slot]!.slot_spec;
      expect(spec.prep_time_max_min).toBe(PREP_TIME_CAPS.intermediate[slot]);
      expect(spec.constraints).toContain('max_difficulty:intermediate');
    }
    expect(planRecipeIds(simpler).every((id) => recipeById(id)!.difficulty !== 'advanced')).toBe(true);
    expect(servedRecipe(simpler.weekly_template.monday!.breakfast!, 'breakfast').traits).toContain('no_cook');
    expect(weekTotals(simpler)).toEqual(weekTotals(usual));
  });

  it('moves energy to the snack and pre-sleep meal in the luteal phase, totals unchanged', () => {
    const luteal = buildWeeklyMealPlan(
      EXAMPLE_STRATEGY,
      context({}, { rerun_reason: { trigger: 'cycle_phase_adjustment', cycle_phase: 'luteal' } }),
    );
    const monday = (p: WeeklyMealPlan, slot: MealSlot) => p.weekly_template.monday![slot]!.slot_spec;
    for (const slot of ['snack', 'presleep'] as const)
      expect(monday(luteal, slot).calories).toBeGreaterThan(monday(plan, slot).calories);
    for (const slot of ['breakfast', 'lunch', 'dinner'] as const)
      expect(monday(luteal, slot).calories).toBeLessThan(monday(plan, slot).calories);
    const [a, b] = [weekTotals(luteal), weekTotals(plan)];
    for (const key of ['calories', 'protein_g', 'carbs_g', 'fat_g'] as const) expect(a[key]).toBeCloseTo(b[key], 0);
    const follicular = buildWeeklyMealPlan(
      EXAMPLE_STRATEGY,
      context({}, { rerun_reason: { trigger: 'cycle_phase_adjustment', cycle_phase: 'follicular' } }),
    );
    expect(follicular).toEqual(plan);
  });

  it("keeps last week's recipes on a re-run unless that output was invalid (§10 rule 2, §6.2)", () => {
    // A previous plan whose Monday dinner is a recipe the rotation would not put there.
    const previous: WeeklyMealPlan = structuredClone(plan);
    const monday = previous.weekly_template.monday!.dinner!;
    const served = new Set(
      WEEKDAYS.flatMap((day) => MEAL_SLOTS.map((slot) => servedRecipe(plan.weekly_template[day]![slot]!, slot).id)),
    );
    const replacement = plan.substitution_bank.dinner!.map((id) => recipeById(id)!).find((r) => !served.has(r.id))!;
    Object.assign(monday, { primary_protein: replacement.primary_protein, cuisine_theme: replacement.cuisine });
    const rerun = buildWeeklyMealPlan({ ...EXAMPLE_STRATEGY }, context({}, { previous_output: previous }));
    expect(servedRecipe(rerun.weekly_template.monday!.dinner!, 'dinner').id).toBe(replacement.id);
    const invalid = buildWeeklyMealPlan(
      EXAMPLE_STRATEGY,
      context({}, { previous_output: previous, validation_issues: [{ path: 'weekly_template', message: 'bad' }] }),
    );
    expect(invalid).toEqual(plan);
  });

  it('is deterministic', () => {
    expect(buildWeeklyMealPlan(EXAMPLE_STRATEGY, context())).toEqual(plan);
  });

  it('fails with a clear error when no recipe can fit a slot', () => {
    const everything = ['dairy', 'soy', 'eggs', 'fish', 'chicken', 'pea_protein', 'beef', 'turkey'];
    expect(() => buildWeeklyMealPlan(EXAMPLE_STRATEGY, context({ food_aversions: everything }))).toThrow(
      DietitianPlanningError,
    );
    expect(() => buildWeeklyMealPlan(strategyOf(1600, 420), context())).toThrow(/no energy for carbs and fat/);
  });

  it('lets the CHEF resolve each slot to its primary from the plan alone (no client constraints)', () => {
    const slotPlan = plan.weekly_template.friday!.presleep!;
    const req = slotRequirements('presleep', slotPlan.slot_spec);
    expect(candidateRecipes(req, slotPlan)[0]?.id).toBe(slotPlan.alternatives[0]);
  });
});
