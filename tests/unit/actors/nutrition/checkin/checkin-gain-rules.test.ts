import { describe, expect, it } from 'vitest';
import { AdjustmentResultSchema } from '../../../../../protocol/nutrition/adjustment-result.ts';
import { createCheckinHistory } from '../../../../../actors/nutrition/checkin/checkin-history.ts';
import { computeMacroTargets } from '../../../../../actors/nutrition/scientist/scientist-macro-targets.ts';
import {
  evaluateAll,
  checkinFixture,
  intakeFixture,
  weighIns,
} from '../../../../support/nutrition/scientist-fixtures.ts';

// Active training and a reported intake close to the target: tier 2 from the start, no phase
// transition before week 8, so only the gain rules (and the monthly protein rule at week 4) act.
const intake = intakeFixture({ training_phase: 'active_training', estimated_daily_intake_kcal: 2100 });
const start = () => createCheckinHistory(intake);
// Weeks 1-4 at +0.3 kg/week: 55.3, 55.6, 55.9, 56.2 (protein 99 -> 101 g at week 4).
const ADAPTATION = [55.3, 55.6, 55.9, 56.2];

describe('gain < 0.25 kg/week for 2 weeks post-adaptation', () => {
  it('adds 200 kcal when weeks 5 and 6 both gain 0.20 kg', () => {
    const evaluations = evaluateAll(start(), weighIns(...ADAPTATION, 56.4, 56.6));
    const week6 = AdjustmentResultSchema.parse(evaluations[5]!.adjustment);
    expect(evaluations[4]!.adjustment.triggers_fired).toEqual([]);
    // 2186 + 200 = 2386; fat ceil(2386 x 0.3 / 9) = 80; carbs (2386 - 4 x 101 - 720) / 4 = 315.5 -> 316
    expect(week6).toEqual({
      triggers_fired: ['calorie_increase'],
      adjustment_type: 'calorie_increase',
      adjustment_amount_kcal: 200,
      new_target_intake_kcal: 2386,
      new_macros: { protein_g: 101, fat_g: 80, carbs_g: 316 },
      agents_re_run: ['NUTRITIONIST', 'DIETITIAN', 'CHEF'],
      agents_unchanged: ['COACH'],
      notes: [
        'Week 6: gain rate 0.20 kg/week — below 0.25 kg/week',
        'Gain rate 0.20 kg/week for 2 consecutive weeks (0.20 and 0.20) — below 0.25 kg/week threshold',
        'Target 2186 -> 2386 kcal (+200), mostly from carbohydrates: carbohydrates +35 g, fat +7 g, protein unchanged',
      ],
    });
    expect(evaluations[5]!.newMacroTargets?.target_intake_kcal).toBe(2386);
  });

  it('does not fire when one of the two weeks gains exactly 0.25 kg', () => {
    const evaluations = evaluateAll(start(), weighIns(...ADAPTATION, 56.45, 56.65));
    expect(evaluations.map((evaluation) => evaluation.triggers)).not.toContainEqual(['calorie_increase']);
    expect(evaluations[5]!.adjustment.adjustment_type).toBeNull();
  });

  it('does not count weeks of the adaptation period', () => {
    // weeks 3 and 4 gain 0.1 (adaptation), week 5 gains 0.1: weeks 4-5 are not both post-adaptation
    const evaluations = evaluateAll(start(), weighIns(55.3, 55.6, 55.7, 55.8, 55.9, 56.0));
    expect(evaluations[3]!.triggers).not.toContain('calorie_increase');
    expect(evaluations[4]!.triggers).not.toContain('calorie_increase');
    expect(evaluations[5]!.triggers).toContain('calorie_increase'); // weeks 5 and 6
  });

  it('waits for two full weeks at the new target before firing again', () => {
    const evaluations = evaluateAll(start(), weighIns(...ADAPTATION, 56.4, 56.6, 56.7, 56.8));
    expect(evaluations[5]!.triggers).toEqual(['calorie_increase']);
    expect(evaluations[6]!.triggers).toEqual([]); // week 6 was eaten at the old target
    expect(evaluations[6]!.adjustment.notes).toEqual(['Week 7: gain rate 0.10 kg/week — below 0.25 kg/week']);
    // weeks 7 and 8; week 8 is also a protein month and the end of the 8-week training block
    expect(evaluations[7]!.triggers).toEqual(['calorie_increase', 'protein_recalculation', 'phase_transition']);
    expect(evaluations[7]!.adjustment).toMatchObject({
      adjustment_type: 'calorie_increase',
      new_target_intake_kcal: 2586,
    });
  });

  it('moves up a ramp tier instead while the ramp is below tier 2', () => {
    // Tier 0 from the start (reported 1600 kcal); 3 minimum viable days each week hold the ramp.
    const history = createCheckinHistory(intakeFixture({ training_phase: 'active_training' }));
    const held = (weight: number) => checkinFixture(weight, { minimum_viable_days_count: 3 });
    const evaluations = evaluateAll(history, [55.3, 55.6, 55.9, 56.2, 56.4, 56.6].map(held));
    const week6 = evaluations[5]!;
    expect(week6.triggers).toEqual(['tier_progression', 'compliance_issue']);
    expect(week6.adjustment).toMatchObject({ adjustment_type: 'tier_progression', new_target_intake_kcal: 1936 });
    expect(week6.adjustment).not.toHaveProperty('adjustment_amount_kcal');
    expect(week6.history.tier).toBe(1);
  });
});

describe('gain > 0.75 kg/week post-adaptation', () => {
  it('takes 150 kcal off for a gain of 0.76 kg in week 5', () => {
    const [, , , , week5] = evaluateAll(start(), weighIns(...ADAPTATION, 56.96));
    expect(AdjustmentResultSchema.parse(week5!.adjustment)).toMatchObject({
      triggers_fired: ['calorie_decrease'],
      adjustment_type: 'calorie_decrease',
      adjustment_amount_kcal: -150,
      new_target_intake_kcal: 2036,
      agents_re_run: ['NUTRITIONIST', 'DIETITIAN', 'CHEF'],
      agents_unchanged: ['COACH'],
    });
    expect(week5!.adjustment.notes[1]).toBe('Gain rate 0.76 kg/week in week 5 — above 0.75 kg/week threshold');
  });

  it('does not fire at exactly 0.75 kg, nor during the adaptation period', () => {
    expect(evaluateAll(start(), weighIns(...ADAPTATION, 56.95))[4]!.triggers).toEqual([]);
    expect(evaluateAll(start(), weighIns(55.3, 55.6, 55.9, 57.0))[3]!.triggers).not.toContain('calorie_decrease');
  });

  it('is not reported when the BMR floor already holds the target', () => {
    // 2186 - 900 = 1286 < BMR 1295.25: the target sits at 1296 already
    const floored = computeMacroTargets(intake, { weeks_on_program: 4, calorie_adjustment_kcal: -900 });
    expect(floored.target_intake_kcal).toBe(1296);
    const history = {
      ...start(),
      start_week: 4,
      tdee_recalc_week: 4,
      protein_recalc_week: 4,
      calorie_adjustment_kcal: -900,
      last_macro_targets: floored,
    };
    const [week5] = evaluateAll(history, weighIns(56));
    expect(week5!.triggers).toEqual([]);
    expect(week5!.adjustment.notes).toContain(
      'The -150 kcal adjustment is not applied: the target is already at the BMR floor',
    );
    expect(week5!.history.calorie_adjustment_kcal).toBe(-900);
  });
});
