import { describe, expect, it } from 'vitest';
import { AdjustmentResultSchema } from '../../../../../protocol/nutrition/adjustment-result.ts';
import { createCheckinHistory } from '../../../../../actors/nutrition/checkin/checkin-history.ts';
import {
  checkinFixture,
  evaluateAll,
  intakeFixture,
  weighIns,
} from '../../../../support/nutrition/scientist-fixtures.ts';

const tier2Active = intakeFixture({ training_phase: 'active_training', estimated_daily_intake_kcal: 2100 });
const tier0Active = intakeFixture({ training_phase: 'active_training' });

describe('TDEE recalculation every 5 kg', () => {
  it('recalculates BMR and TDEE at exactly 5 kg above the last calculation', () => {
    const [week1] = evaluateAll(createCheckinHistory(tier0Active), weighIns(60));
    // BMR 10 x 60 + 1031.25 - 125 - 161 = 1345.25; TDEE x 1.45 = 1951; + 330 (0.30 kg/week) = 2281;
    // tier 0 = 2281 - 500 = 1781 (was 1686)
    expect(week1!.triggers).toEqual(['tdee_recalculation']);
    expect(week1!.newMacroTargets).toMatchObject({ bmr_kcal: 1345.25, tdee_kcal: 1951, target_intake_kcal: 1781 });
    expect(week1!.adjustment.notes[1]).toBe(
      'Weight 60 kg is 5.00 kg above the last TDEE calculation at 55 kg (milestone every 5 kg) — BMR and TDEE recalculated',
    );
    expect(week1!.history.tdee_weight_kg).toBe(60);
  });

  it('does not recalculate at 4.99 kg, and counts the next 5 kg from the last recalculation', () => {
    expect(evaluateAll(createCheckinHistory(tier0Active), weighIns(59.99))[0]!.triggers).toEqual([]);
    const evaluations = evaluateAll(createCheckinHistory(tier0Active), weighIns(60, 64.99, 65));
    expect(evaluations.map((evaluation) => evaluation.triggers.includes('tdee_recalculation'))).toEqual([
      true,
      false,
      true,
    ]);
  });
});

describe('protein recalculation monthly', () => {
  it('recalculates at week 4 from the week-4 weight, carbs keeping the energy target', () => {
    const evaluations = evaluateAll(createCheckinHistory(tier2Active), weighIns(55, 55, 55.6, 56.2));
    expect(evaluations[2]!.triggers).toEqual([]);
    const week4 = AdjustmentResultSchema.parse(evaluations[3]!.adjustment);
    // 1.8 x 56.2 = 101.16 -> 101 g; carbs (2186 - 404 - 657) / 4 = 281.25 -> 281; target unchanged
    expect(week4).toMatchObject({
      triggers_fired: ['protein_recalculation'],
      adjustment_type: 'protein_recalculation',
      new_macros: { protein_g: 101, fat_g: 73, carbs_g: 281 },
      agents_re_run: ['NUTRITIONIST', 'DIETITIAN', 'CHEF'],
    });
    expect(week4).not.toHaveProperty('new_target_intake_kcal');
    expect(week4.notes[1]).toBe(
      'Monthly protein recalculation (every 4 weeks) at 56.2 kg x 1.8 g/kg: protein 99 g -> 101 g, carbohydrates rebalanced to keep 2186 kcal',
    );
  });

  it('does not fire when the recalculated grams are the same, but notes it and restarts the month', () => {
    const evaluations = evaluateAll(
      createCheckinHistory(tier2Active),
      weighIns(55, 55.1, 55, 55.2, 55.3, 55.5, 55.6, 56.7),
    );
    expect(evaluations[3]!.triggers).toEqual([]); // 1.8 x 55.2 = 99.36 -> 99
    expect(evaluations[3]!.adjustment.notes).toContain(
      'Monthly protein recalculation (every 4 weeks) at 55.2 kg x 1.79 g/kg: protein unchanged at 99 g', // 99 / 55.2
    );
    expect(evaluations[3]!.history.protein_recalc_week).toBe(4);
    expect(evaluations[7]!.triggers).toContain('protein_recalculation'); // week 8: 1.8 x 56.7 = 102
  });
});

describe('tier progression', () => {
  it('moves up one tier after 2 weeks on a tier, not after 1', () => {
    const evaluations = evaluateAll(createCheckinHistory(tier0Active), weighIns(55.3, 55.6, 55.9, 56.2));
    expect(evaluations[0]!.triggers).toEqual([]);
    expect(evaluations[1]!.adjustment).toMatchObject({
      triggers_fired: ['tier_progression'],
      new_target_intake_kcal: 1936,
      agents_re_run: ['NUTRITIONIST', 'DIETITIAN', 'CHEF'],
      agents_unchanged: ['COACH'],
    });
    expect(evaluations[1]!.adjustment.notes[1]).toBe(
      'Week 2: 2 weeks on tier 0 with at most 2 minimum viable days: calorie ramp moves from tier 0 to tier 1 (+250 kcal/day)',
    );
    expect(evaluations[2]!.triggers).toEqual([]);
    expect(evaluations[3]!.triggers).toContain('tier_progression');
    expect(evaluations[3]!.history.tier).toBe(2);
    expect(evaluations[3]!.newMacroTargets?.target_intake_kcal).toBe(2186);
  });

  it('holds the tier in a week of more than 2 minimum viable days or a gain over 0.75 kg', () => {
    const history = createCheckinHistory(tier0Active);
    const [, week2] = evaluateAll(history, [
      checkinFixture(55.3),
      checkinFixture(55.6, { minimum_viable_days_count: 3 }),
    ]);
    expect(week2!.triggers).toEqual(['compliance_issue']);
    const [, fast] = evaluateAll(history, weighIns(55.3, 56.1)); // +0.8 kg
    expect(fast!.triggers).toEqual([]);
    expect(fast!.history.tier).toBe(0);
  });

  it('stops at tier 2', () => {
    const evaluations = evaluateAll(createCheckinHistory(tier2Active), weighIns(55.3, 55.6, 55.9));
    expect(evaluations.flatMap((evaluation) => evaluation.triggers)).not.toContain('tier_progression');
  });
});

describe('compliance issue (> 2 minimum viable days)', () => {
  it('fires at 3 days, re-running DIETITIAN and CHEF only', () => {
    const [week1] = evaluateAll(createCheckinHistory(tier2Active), [
      checkinFixture(55.3, { minimum_viable_days_count: 3 }),
    ]);
    expect(AdjustmentResultSchema.parse(week1!.adjustment)).toMatchObject({
      triggers_fired: ['compliance_issue'],
      agents_re_run: ['DIETITIAN', 'CHEF'],
      agents_unchanged: ['NUTRITIONIST', 'COACH'],
    });
    expect(week1!.adjustment.notes[1]).toBe(
      '3 minimum viable days this week (limit 2) — DIETITIAN simplifies the plan, CHEF adapts recipes',
    );
    expect(week1!.newMacroTargets).toBeUndefined();
  });

  it('does not fire at 2 days', () => {
    const [week1] = evaluateAll(createCheckinHistory(tier2Active), [
      checkinFixture(55.3, { minimum_viable_days_count: 2 }),
    ]);
    expect(week1!.triggers).toEqual([]);
  });
});

describe('cycle-phase adjustment', () => {
  const phases = (...days: Array<number | undefined>) =>
    evaluateAll(
      createCheckinHistory(tier2Active),
      days.map((day) => checkinFixture(55.3, day === undefined ? {} : { cycle_day: day })),
    ).map((evaluation) => evaluation.triggers.includes('cycle_phase_adjustment'));

  it('fires on entering the luteal phase (day 15) and on leaving it, not within a phase', () => {
    expect(phases(7, 14, 15, 22, 1, 8)).toEqual([false, false, true, false, true, false]);
  });

  it('fires on a first report only when it is luteal, and ignores weeks without cycle data', () => {
    expect(phases(20)).toEqual([true]);
    expect(phases(undefined, 3, undefined, 17)).toEqual([false, false, false, true]);
  });

  it('re-runs DIETITIAN and CHEF with the phase change in the notes', () => {
    const [week1] = evaluateAll(createCheckinHistory(tier2Active), [
      checkinFixture(55.3, { cycle_phase: 'luteal', cycle_day: 18 }),
    ]);
    expect(week1!.adjustment).toMatchObject({
      agents_re_run: ['DIETITIAN', 'CHEF'],
      agents_unchanged: ['NUTRITIONIST', 'COACH'],
    });
    expect(week1!.adjustment.notes[1]).toBe(
      'Cycle phase not reported -> luteal (cycle day 18) — DIETITIAN applies the luteal strategy',
    );
  });
});

describe('waist growing faster than hips', () => {
  const girths = (...pairs: Array<[number, number]>) =>
    evaluateAll(
      createCheckinHistory(tier2Active),
      pairs.map(([waist, hip]) => checkinFixture(55.3, { waist_cm: waist, hip_cm: hip })),
    );

  it('flags waist +1.0 cm against hips +0.5 cm for a full review', () => {
    const [first, second] = girths([68.5, 92.5], [69.5, 93]);
    expect(first!.triggers).toEqual([]); // nothing to compare with yet
    expect(AdjustmentResultSchema.parse(second!.adjustment)).toMatchObject({
      triggers_fired: ['waist_hip_ratio_flag'],
      agents_re_run: ['NUTRITIONIST', 'DIETITIAN', 'CHEF', 'COACH'],
      agents_unchanged: [],
    });
    expect(second!.adjustment.notes[1]).toBe(
      'Waist +1 cm vs hips +0.5 cm since week 1 (waist-to-hip ratio 0.74 -> 0.75) — waist growing faster than hips, flagged for full review',
    );
    expect(second!.trainingInput).toBeDefined();
  });

  it('does not flag equal growth, a shrinking waist, or faster hips', () => {
    expect(girths([68.5, 92.5], [69.5, 93.5])[1]!.triggers).toEqual([]);
    expect(girths([68.5, 92.5], [68, 91.5])[1]!.triggers).toEqual([]);
    expect(girths([68.5, 92.5], [69, 93.5])[1]!.triggers).toEqual([]);
  });

  it('compares with the last measured week, skipping off weeks', () => {
    const evaluations = evaluateAll(createCheckinHistory(tier2Active), [
      checkinFixture(55.3, { waist_cm: 68.5, hip_cm: 92.5 }),
      checkinFixture(55.6),
      checkinFixture(55.9, { waist_cm: 70, hip_cm: 92.5 }),
    ]);
    expect(evaluations[2]!.triggers).toEqual(['waist_hip_ratio_flag']);
    expect(evaluations[2]!.adjustment.notes[1]).toContain('since week 1');
  });
});
