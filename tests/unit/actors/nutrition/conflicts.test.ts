import { describe, expect, it } from 'vitest';
import type { NutritionStrategy } from '../../../../protocol/nutrition/nutrition-strategy.ts';
import type { Recipe, Recipes } from '../../../../protocol/nutrition/recipes.ts';
import {
  MealSlotSchema,
  WeeklyTemplateSchema,
  type SlotSpec,
  type WeeklyMealPlan,
} from '../../../../protocol/nutrition/weekly-meal-plan.ts';
import { WeekdaySchema } from '../../../../protocol/nutrition/weekday.ts';
import {
  detectRank2Conflict,
  detectRank3Conflict,
  detectRank4Conflict,
  deviation,
  weeklyPlanTotals,
} from '../../../../actors/nutrition/conflicts.ts';
import { buildNutritionStrategy } from '../../../../actors/nutrition/nutritionist/nutritionist-strategy.ts';
import { computeMacroTargets } from '../../../../actors/nutrition/scientist/scientist-macro-targets.ts';
import { intakeFixture } from '../../../support/nutrition/scientist-fixtures.ts';

const targets = computeMacroTargets(intakeFixture({ estimated_daily_intake_kcal: 2100 })); // 2186 kcal, 99 / 73 / 283 g
const strategy = buildNutritionStrategy(targets, { current_tier: 2 });

/** A plan with the same slot spec in all 35 slots; `alternatives` per slot from `refs`. */
function plan(
  spec: Omit<SlotSpec, 'prep_time_max_min' | 'constraints'>,
  refs: (day: string, slot: string) => string[] = () => [],
): WeeklyMealPlan {
  const days = WeeklyTemplateSchema.parse(
    Object.fromEntries(
      WeekdaySchema.options.map((day) => [
        day,
        Object.fromEntries(
          MealSlotSchema.options.map((slot) => [
            slot,
            {
              slot_spec: { ...spec, prep_time_max_min: 20, constraints: [] },
              alternatives: refs(day, slot),
              primary_protein: 'chicken',
              cuisine_theme: null,
            },
          ]),
        ),
      ]),
    ),
  );
  return {
    weekly_template: days,
    substitution_bank: {},
    emergency_protocol: { meals: ['shake'], calories: 1500, protein_g: 80 },
    solo_week_protocol: { description: 'solo', recipe_ids: [] },
    tracking_protocol: { weeks_1_4: 'weigh food', weeks_5_plus: 'hand portions' },
  };
}

function recipe(name: string, macros: Recipe['macros_per_serving'], id?: string): Recipe {
  return {
    ...(id ? { recipe_id: id } : {}),
    recipe_name: name,
    cuisine: 'any',
    servings: 1,
    ingredients: [{ item: 'rice', amount_g: 100, prep_notes: '' }],
    macros_per_serving: macros,
    instructions: ['cook'],
    time: { prep_min: 5, cook_min: 10 },
    batch_notes: '',
    storage: { fridge_days: 3, freezer_friendly: false },
    calorie_boost_options: [],
  };
}

describe('detectRank2Conflict', () => {
  it('finds nothing when the NUTRITIONIST passed the totals through', () => {
    expect(detectRank2Conflict(targets, strategy)).toEqual([]);
  });

  it('reports each changed total against the SCIENTIST value', () => {
    const changed: NutritionStrategy = { ...strategy, target_intake_kcal: 2286, carbs_g: 308 };
    expect(detectRank2Conflict(targets, changed)).toEqual([
      {
        rank: 2,
        higher_agent: 'SCIENTIST',
        lower_agent: 'NUTRITIONIST',
        field: 'target_intake_kcal',
        expected: 2186,
        actual: 2286,
        deviation: 100 / 2186,
      },
      {
        rank: 2,
        higher_agent: 'SCIENTIST',
        lower_agent: 'NUTRITIONIST',
        field: 'carbs_g',
        expected: 283,
        actual: 308,
        deviation: 25 / 283,
      },
    ]);
  });
});

describe('detectRank3Conflict', () => {
  // 35 slots x 70 kcal = 2450 kcal/week against 2186 x 7 = 15302: build slot values from daily / 5
  const daily = { calories: 2186 / 5, protein_g: 99 / 5, fat_g: 73 / 5, carbs_g: 283 / 5 };

  it('finds nothing when the weekly totals equal the daily targets x 7', () => {
    expect(weeklyPlanTotals(plan(daily)).calories).toBeCloseTo(15302, 6);
    expect(detectRank3Conflict(strategy, plan(daily))).toEqual([]);
  });

  it('allows exactly 5 % and flags more than 5 %', () => {
    expect(detectRank3Conflict(strategy, plan({ ...daily, calories: daily.calories * 1.05 }))).toEqual([]);
    const over = detectRank3Conflict(strategy, plan({ ...daily, calories: daily.calories * 1.051 }));
    expect(over).toHaveLength(1);
    expect(over[0]).toMatchObject({
      rank: 3,
      higher_agent: 'NUTRITIONIST',
      lower_agent: 'DIETITIAN',
      field: 'weekly_template.calories',
      expected: 15302,
    });
    expect(over[0]!.deviation).toBeCloseTo(0.051, 9);
    const under = detectRank3Conflict(strategy, plan({ ...daily, protein_g: daily.protein_g * 0.94 }));
    expect(under.map((conflict) => conflict.field)).toEqual(['weekly_template.protein_g']);
    expect(under[0]!.deviation).toBeCloseTo(-0.06, 9);
  });
});

describe('detectRank4Conflict', () => {
  const spec = { calories: 500, protein_g: 30, fat_g: 15, carbs_g: 60 };
  const onlyMondayLunch = (day: string, slot: string) => (day === 'monday' && slot === 'lunch' ? ['bowl-1'] : []);

  it('allows a recipe within 10 % of its slot spec (exactly 10 % included)', () => {
    const recipes: Recipes = {
      recipes: [recipe('Rice bowl', { calories: 550, protein_g: 27, fat_g: 16.5, carbs_g: 54, fiber_g: 5 }, 'bowl-1')],
    };
    expect(detectRank4Conflict(plan(spec, onlyMondayLunch), recipes)).toEqual([]);
  });

  it('flags each macro more than 10 % off, naming day, slot and recipe', () => {
    const recipes: Recipes = {
      recipes: [recipe('Rice bowl', { calories: 560, protein_g: 30, fat_g: 15, carbs_g: 70, fiber_g: 5 }, 'bowl-1')],
    };
    expect(detectRank4Conflict(plan(spec, onlyMondayLunch), recipes)).toEqual([
      {
        rank: 4,
        higher_agent: 'DIETITIAN',
        lower_agent: 'CHEF',
        field: 'weekly_template.monday.lunch[bowl-1].calories',
        expected: 500,
        actual: 560,
        deviation: 0.12,
      },
      {
        rank: 4,
        higher_agent: 'DIETITIAN',
        lower_agent: 'CHEF',
        field: 'weekly_template.monday.lunch[bowl-1].carbs_g',
        expected: 60,
        actual: 70,
        deviation: 10 / 60,
      },
    ]);
  });

  it('ties a recipe without recipe_id to a slot by its name, and ignores recipes no slot lists', () => {
    const byName = (day: string, slot: string) => (day === 'friday' && slot === 'snack' ? ['Shake'] : []);
    const recipes: Recipes = {
      recipes: [
        recipe('Shake', { calories: 700, protein_g: 30, fat_g: 15, carbs_g: 60, fiber_g: 2 }),
        recipe('Unused', { calories: 900, protein_g: 0, fat_g: 0, carbs_g: 0, fiber_g: 0 }, 'unused'),
      ],
    };
    const conflicts = detectRank4Conflict(plan(spec, byName), recipes);
    expect(conflicts.map((conflict) => conflict.field)).toEqual(['weekly_template.friday.snack[Shake].calories']);
  });
});

describe('deviation', () => {
  it('is relative to the expected value, with a floor of 1 for zero specs', () => {
    expect(deviation(200, 220)).toBeCloseTo(0.1, 12);
    expect(deviation(0, 0.5)).toBe(0.5);
    expect(deviation(0, 0)).toBe(0);
  });
});
