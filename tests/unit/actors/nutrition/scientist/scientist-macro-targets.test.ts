import { describe, expect, it } from 'vitest';
import { MacroTargetsSchema } from '../../../../../protocol/nutrition/macro-targets.ts';
import {
  calculateMacroTargets,
  computeMacroTargets,
} from '../../../../../actors/nutrition/scientist/scientist-macro-targets.ts';
import { intakeFixture } from '../../../../support/nutrition/scientist-fixtures.ts';

describe('computeMacroTargets', () => {
  it('works the 25-year-old, 165 cm, 55 kg example through to the payload', () => {
    const targets = MacroTargetsSchema.parse(computeMacroTargets(intakeFixture()));
    expect(targets).toMatchObject({
      bmr_kcal: 1295.25,
      tdee_kcal: 1878,
      // full target 1878 + 308 = 2186; reported 1600 kcal is 586 below: tier 0 = 2186 - 2 x 250
      target_intake_kcal: 1686,
      protein_g: 99, // 1.8 x 55
      protein_g_per_kg: 1.8,
      fat_g: 57,
      fat_percent: 30.4,
      carbs_g: 194,
      fiber_g_min: 20,
      hydration_L: 2,
      current_weight_kg: 55,
      target_weight_kg: 62,
      weekly_weight_target_kg: 0.28,
      training_phase: 'pre_training',
      weeks_on_program: 0,
      adaptation_period_complete: false,
    });
    expect(targets.client_constraints).toEqual({
      food_aversions: ['peanut_butter', 'nut_butters'],
      appetite_level: 'normal',
      cooking_skill: 'basic',
      partner_cooks: true,
    });
  });

  it('starts at the full target when the client already eats close to it', () => {
    const targets = computeMacroTargets(intakeFixture({ estimated_daily_intake_kcal: 2100 }));
    expect(targets.target_intake_kcal).toBe(2186);
    // fat ceil(2186 x 0.3 / 9) = ceil(72.87) = 73; carbs (2186 - 396 - 657) / 4 = 283.25 -> 283
    expect(targets.fat_g).toBe(73);
    expect(targets.carbs_g).toBe(283);
  });

  it('marks the adaptation period complete from week 4, not at week 3', () => {
    expect(computeMacroTargets(intakeFixture(), { weeks_on_program: 3 }).adaptation_period_complete).toBe(false);
    expect(computeMacroTargets(intakeFixture(), { weeks_on_program: 4 }).adaptation_period_complete).toBe(true);
    expect(computeMacroTargets(intakeFixture({ weeks_on_program: 6 })).adaptation_period_complete).toBe(true);
  });

  it('applies the ramp tier and the check-in adjustments from the context', () => {
    const ramp = { tier: 2 as const, step_kcal: 250 };
    expect(computeMacroTargets(intakeFixture(), { ramp }).target_intake_kcal).toBe(2186);
    expect(computeMacroTargets(intakeFixture(), { ramp, calorie_adjustment_kcal: 200 }).target_intake_kcal).toBe(2386);
    expect(computeMacroTargets(intakeFixture(), { ramp, calorie_adjustment_kcal: -150 }).target_intake_kcal).toBe(2036);
  });

  it('never sets the target below the BMR', () => {
    const targets = computeMacroTargets(intakeFixture(), { ramp: { tier: 0, step_kcal: 600 } });
    expect(targets.target_intake_kcal).toBe(1296); // 2186 - 1200 = 986 < ceil(1295.25)
  });

  it('keeps energy on the TDEE weight and protein on the protein weight', () => {
    const targets = computeMacroTargets(intakeFixture(), {
      current_weight_kg: 57.4,
      tdee_weight_kg: 55,
      protein_weight_kg: 56,
      ramp: { tier: 2, step_kcal: 250 },
    });
    expect(targets.current_weight_kg).toBe(57.4);
    expect(targets.tdee_kcal).toBe(1878);
    expect(targets.protein_g).toBe(101); // 1.8 x 56 = 100.8
  });

  it('uses the male constant when sex is male', () => {
    const { energy } = calculateMacroTargets(intakeFixture({ sex: 'male' }));
    expect(energy.bmr_kcal).toBe(1461.25); // 1295.25 + 166
  });

  it('reports the ramp it started', () => {
    expect(calculateMacroTargets(intakeFixture()).ramp).toEqual({ tier: 0, step_kcal: 250 });
  });
});
