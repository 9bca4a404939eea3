import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MacroTargetsSchema, type MacroTargets } from '../../../protocol/nutrition/macro-targets.ts';
import { TrainingInputSchema } from '../../../protocol/nutrition/training-input.ts';
import {
  calculateMacroTargets,
  computeMacroTargets,
} from '../../../actors/nutrition/scientist/scientist-macro-targets.ts';
import { macroKcal } from '../../../actors/nutrition/scientist/scientist-macro-split.ts';
import { buildTrainingInput } from '../../../actors/nutrition/scientist/scientist-training-input.ts';
import { intakeArb, oneDecimal } from '../../support/nutrition/scientist-arbitraries.ts';

const NUM_RUNS = 500;

/** The invariants every macro_targets payload must keep, whatever the state it was computed in. */
function expectSound(targets: MacroTargets) {
  MacroTargetsSchema.parse(targets);
  const kcal = macroKcal(targets);
  expect(Math.abs(kcal - targets.target_intake_kcal)).toBeLessThanOrEqual(targets.target_intake_kcal * 0.01);
  expect((targets.fat_g * 9) / targets.target_intake_kcal).toBeGreaterThanOrEqual(0.25);
  expect(targets.weekly_weight_target_kg).toBeGreaterThanOrEqual(0.25);
  expect(targets.weekly_weight_target_kg).toBeLessThanOrEqual(0.5);
  expect(targets.fiber_g_min).toBeGreaterThanOrEqual(20);
  expect(targets.adaptation_period_complete).toBe(targets.weeks_on_program >= 4);
}

describe('SCIENTIST properties', () => {
  it('every intake gives schema-valid targets: macros within 1 %, protein 1.6-2.0 g/kg, fat >= 25 %, gain 0.25-0.5', () => {
    fc.assert(
      fc.property(intakeArb, (intake) => {
        const targets = computeMacroTargets(intake);
        expectSound(targets);
        const perKg = targets.protein_g / intake.current_weight_kg;
        expect(perKg).toBeGreaterThanOrEqual(1.6);
        expect(perKg).toBeLessThanOrEqual(2.0);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('the ramp starts from what the client eats: the target lies between the habitual intake and the full target', () => {
    fc.assert(
      fc.property(intakeArb, (intake) => {
        const { macro_targets, energy } = calculateMacroTargets(intake);
        const target = macro_targets.target_intake_kcal;
        expect(target).toBeLessThanOrEqual(Math.max(energy.full_target_kcal, Math.ceil(energy.bmr_kcal)));
        expect(target).toBeGreaterThanOrEqual(Math.min(intake.estimated_daily_intake_kcal, energy.full_target_kcal));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('stays sound in any check-in state: tier, adjustments, recalculation weights, week', () => {
    const state = fc.record({
      tier: fc.constantFrom(0 as const, 1 as const, 2 as const),
      step: fc.integer({ min: 250, max: 700 }),
      adjustment: fc.integer({ min: -6, max: 6 }).map((steps) => steps * 50),
      weight: oneDecimal(38, 140),
      weeks: fc.integer({ min: 0, max: 104 }),
    });
    fc.assert(
      fc.property(intakeArb, state, (intake, s) => {
        const targets = computeMacroTargets(intake, {
          ramp: { tier: s.tier, step_kcal: s.step },
          calorie_adjustment_kcal: s.adjustment,
          current_weight_kg: s.weight,
          tdee_weight_kg: s.weight,
          protein_weight_kg: s.weight,
          weeks_on_program: s.weeks,
        });
        expectSound(targets);
        expect(targets.target_intake_kcal).toBeGreaterThanOrEqual(Math.ceil(targets.bmr_kcal));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('more daily steps never lower the TDEE', () => {
    fc.assert(
      fc.property(intakeArb, fc.integer({ min: 0, max: 10000 }), (intake, more) => {
        const base = computeMacroTargets(intake).tdee_kcal;
        const busier = computeMacroTargets({ ...intake, avg_daily_steps: intake.avg_daily_steps + more }).tdee_kcal;
        expect(busier).toBeGreaterThanOrEqual(base);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('the week-0 COACH input is schema-valid for every intake', () => {
    fc.assert(
      fc.property(intakeArb, (intake) => {
        TrainingInputSchema.parse(buildTrainingInput(intake));
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
