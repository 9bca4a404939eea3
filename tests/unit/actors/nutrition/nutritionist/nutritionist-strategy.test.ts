import { describe, expect, it } from 'vitest';
import { NutritionStrategySchema } from '../../../../../protocol/nutrition/nutrition-strategy.ts';
import type { MedicalContext } from '../../../../../protocol/nutrition/medical-context.ts';
import {
  buildNutritionStrategy,
  fiberTargetG,
} from '../../../../../actors/nutrition/nutritionist/nutritionist-strategy.ts';
import { isAverted } from '../../../../../actors/nutrition/nutritionist/nutritionist-food-aversions.ts';
import { computeMacroTargets } from '../../../../../actors/nutrition/scientist/scientist-macro-targets.ts';
import { intakeFixture } from '../../../../support/nutrition/scientist-fixtures.ts';

const targets = computeMacroTargets(intakeFixture()); // 1686 kcal, 99 g protein, 57 g fat, 194 g carbs

describe('buildNutritionStrategy', () => {
  it('passes the SCIENTIST totals through unchanged and carries the tier', () => {
    const strategy = NutritionStrategySchema.parse(buildNutritionStrategy(targets, { current_tier: 0 }));
    expect(strategy).toMatchObject({
      target_intake_kcal: 1686,
      protein_g: 99,
      fat_g: 57,
      carbs_g: 194,
      current_tier: 0,
    });
  });

  it('spreads protein over the five slots, summing to protein_g', () => {
    const { protein_distribution } = buildNutritionStrategy(targets, { current_tier: 0 });
    // 99 x (0.22, 0.24, 0.14, 0.24, 0.16) = 21.78, 23.76, 13.86, 23.76, 15.84 -> largest remainders
    expect(protein_distribution).toEqual({ breakfast_g: 22, lunch_g: 24, snack_g: 14, dinner_g: 23, presleep_g: 16 });
  });

  it('raises water above the SCIENTIST base for creatine and training', () => {
    expect(buildNutritionStrategy(targets, { current_tier: 0 }).hydration_target_L).toBe(2.8); // 2.0 + 0.25 + 0.5
  });

  it('orders tactics by appetite, the ramp first while below tier 2', () => {
    const low = buildNutritionStrategy(
      { ...targets, client_constraints: { ...targets.client_constraints, appetite_level: 'low' } },
      { current_tier: 1 },
    );
    expect(low.hardgainer_tactics[0]).toBe(
      'Calorie ramp tier 1 of 2: eat 1686 kcal every day; the next tier adds about a snack after 2 weeks at this one',
    );
    expect(low.hardgainer_tactics[1]).toMatch(/^Eat by the clock/);
    expect(low.hardgainer_tactics[2]).toMatch(/^Drink part of the energy/);
    const high = buildNutritionStrategy(
      { ...targets, client_constraints: { ...targets.client_constraints, appetite_level: 'high' } },
      { current_tier: 2 },
    );
    expect(high.hardgainer_tactics[0]).toMatch(/^Hit the protein amount/);
    expect(high.hardgainer_tactics[1]).toMatch(/^Serve the slot portions/);
  });

  it('adds batch cooking for a basic cook whose partner does not cook', () => {
    const alone = { ...targets, client_constraints: { ...targets.client_constraints, partner_cooks: false } };
    expect(buildNutritionStrategy(alone, { current_tier: 2 }).hardgainer_tactics.at(-1)).toMatch(/^Batch-cook/);
    expect(buildNutritionStrategy(targets, { current_tier: 2 }).hardgainer_tactics.join()).not.toMatch(/Batch-cook/);
  });

  it('recommends creatine, a protein powder and pre-sleep protein with dose and timing', () => {
    const { supplement_protocol } = buildNutritionStrategy(targets, { current_tier: 2 });
    expect(supplement_protocol).toEqual([
      {
        supplement: 'creatine monohydrate',
        dose: '3 g per day',
        timing: 'once a day with any meal, rest days included; no loading phase',
      },
      expect.objectContaining({ supplement: 'whey protein' }),
      expect.objectContaining({
        supplement: 'casein (or Greek yogurt / quark as food)',
        dose: '16 g protein',
        timing: '30-60 min before sleep',
      }),
    ]);
    const heavy = buildNutritionStrategy({ ...targets, current_weight_kg: 85 }, { current_tier: 2 });
    expect(heavy.supplement_protocol[0]?.dose).toBe('5 g per day');
  });

  it('swaps dairy out of tactics and supplements for a dairy aversion', () => {
    const aversions = ['peanut_butter', 'nut_butters', 'dairy'];
    const strategy = buildNutritionStrategy(
      {
        ...targets,
        client_constraints: { ...targets.client_constraints, food_aversions: aversions, appetite_level: 'low' },
      },
      { current_tier: 2 },
    );
    expect(strategy.supplement_protocol.map((item) => item.supplement)).toEqual([
      'creatine monohydrate',
      'pea protein',
      'soy protein (or tofu as food)',
    ]);
    expect(strategy.hardgainer_tactics.join(' ')).not.toMatch(/whole milk|whey|cheese/);
    expect(strategy.hardgainer_tactics.join(' ')).toMatch(/oat milk/);
    expect(isAverted('whole milk', aversions)).toBe(true);
    expect(isAverted('butter', aversions)).toBe(false); // peanut butter does not rule out butter
  });

  it('sets the fiber target at 14 g/1,000 kcal, or at the floor for a low appetite', () => {
    expect(fiberTargetG(targets)).toBe(24); // 14 x 1.686 = 23.6
    expect(
      fiberTargetG({ ...targets, client_constraints: { ...targets.client_constraints, appetite_level: 'low' } }),
    ).toBe(20);
    expect(fiberTargetG({ ...targets, fiber_g_min: 30 })).toBe(30);
  });

  it('lists appetite, aversions, partner and calcium-iron separation', () => {
    const notes = buildNutritionStrategy(targets, { current_tier: 2 }).special_considerations;
    expect(notes[0]).toMatch(/^Normal appetite/);
    expect(notes[1]).toBe(
      'Never use: peanut butter, nut butters; energy-dense swaps: olive oil, seeds, cheese, avocado, dried fruit, granola',
    );
    expect(notes[2]).toMatch(/^Partner cooks/);
    expect(notes[3]).toMatch(/^Calcium-iron separation/);
  });

  it('puts an attached PHYSICIAN advisory first', () => {
    const advisory: MedicalContext = {
      response: 'Irregular cycles can be an early sign of low energy availability.',
      sources: [],
      mechanism_explained: 'm',
      timeline: null,
      referral_needed: false,
      referral_target: null,
      urgency: 'routine',
      pipeline_action: 'continue',
      disclaimer: 'd',
    };
    const notes = buildNutritionStrategy(targets, {
      current_tier: 2,
      medical_context: advisory,
    }).special_considerations;
    expect(notes[0]).toBe(
      'PHYSICIAN advisory (continue): Irregular cycles can be an early sign of low energy availability.',
    );
  });

  it('keeps the totals in both cycle phases and has nothing to adjust with amenorrhea', () => {
    const { cycle_adjustments } = buildNutritionStrategy(targets, { current_tier: 2 });
    expect(cycle_adjustments.follicular).toContain('1686 kcal');
    expect(cycle_adjustments.luteal).toMatch(/^Same 1686 kcal and macros/);
    const none = buildNutritionStrategy(targets, { current_tier: 2, menstrual_status: 'amenorrhea' }).cycle_adjustments;
    expect(none.follicular).toBe(none.luteal);
    expect(none.luteal).toMatch(/No cycle to follow/);
  });

  it('complies with an explicit constraint from conflict resolution', () => {
    const authoritative = { ...targets, target_intake_kcal: 1936, carbs_g: 254, fat_g: 65 };
    const strategy = buildNutritionStrategy(targets, { current_tier: 1, constraint: { macro_targets: authoritative } });
    expect(strategy).toMatchObject({ target_intake_kcal: 1936, carbs_g: 254, fat_g: 65, protein_g: 99 });
  });
});
