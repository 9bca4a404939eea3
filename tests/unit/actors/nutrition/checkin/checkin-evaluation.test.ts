import { describe, expect, it } from 'vitest';
import { AdjustmentResultSchema } from '../../../../../protocol/nutrition/adjustment-result.ts';
import { appendCheckin } from '../../../../../actors/nutrition/checkin/checkin-append.ts';
import { evaluateCheckin } from '../../../../../actors/nutrition/checkin/checkin-evaluation.ts';
import { CheckinHistorySchema, createCheckinHistory } from '../../../../../actors/nutrition/checkin/checkin-history.ts';
import {
  checkinFixture,
  evaluateAll,
  intakeFixture,
  weighIns,
} from '../../../../support/nutrition/scientist-fixtures.ts';

const active = intakeFixture({ training_phase: 'active_training', estimated_daily_intake_kcal: 2100 });

describe('evaluateCheckin', () => {
  it('answers the §7.4 no-change form when no trigger fires', () => {
    const evaluation = evaluateCheckin(checkinFixture(55.3), createCheckinHistory(active));
    expect(AdjustmentResultSchema.parse(evaluation.adjustment)).toEqual({
      triggers_fired: [],
      adjustment_type: null,
      agents_re_run: [],
      agents_unchanged: ['NUTRITIONIST', 'DIETITIAN', 'CHEF', 'COACH'],
      notes: [
        'Week 1: gain rate 0.30 kg/week — adaptation period (week 1 of 4); gain-based calorie rules start after week 4',
      ],
    });
    expect(evaluation.week).toBe(1);
    expect(evaluation.newMacroTargets).toBeUndefined();
    expect(evaluation.trainingInput).toBeUndefined();
    expect(evaluation.redFlags).toEqual([]);
  });

  it('says a post-adaptation gain is within range, as in the spec example', () => {
    const evaluations = evaluateAll(createCheckinHistory(active), weighIns(55.3, 55.6, 55.9, 55.9, 56.2, 56.52));
    expect(evaluations[5]!.adjustment.notes).toEqual([
      'Week 6: gain rate 0.32 kg/week — within target range (0.25-0.5 kg/week)',
    ]);
  });

  it('numbers weeks from the intake week of a resumed program', () => {
    const history = createCheckinHistory(
      intakeFixture({ weeks_on_program: 10, training_phase: 'active_training', estimated_daily_intake_kcal: 2100 }),
    );
    const evaluation = evaluateCheckin(checkinFixture(55.3), history);
    expect(evaluation.week).toBe(11);
    expect(evaluation.history.last_macro_targets).toMatchObject({
      weeks_on_program: 11,
      adaptation_period_complete: true,
    });
  });

  it('unions the agents of several triggers and picks the calorie change as the adjustment type', () => {
    const history = createCheckinHistory(active);
    const checkins = [
      ...weighIns(55.3, 55.6, 55.9, 56.2, 56.4),
      checkinFixture(56.6, { minimum_viable_days_count: 4 }),
    ];
    const week6 = evaluateAll(history, checkins)[5]!;
    expect(week6.adjustment).toMatchObject({
      triggers_fired: ['calorie_increase', 'compliance_issue'],
      adjustment_type: 'calorie_increase',
      agents_re_run: ['NUTRITIONIST', 'DIETITIAN', 'CHEF'],
      agents_unchanged: ['COACH'],
    });
  });

  it('raises a BMI under 16 at the check-in weight as a red flag', () => {
    const history = createCheckinHistory(intakeFixture({ height_cm: 180, current_weight_kg: 52 }));
    expect(evaluateCheckin(checkinFixture(51.8), history).redFlags).toMatchObject([
      { kind: 'low_bmi', source: 'checkin' },
    ]);
    expect(evaluateCheckin(checkinFixture(51.9), history).redFlags).toEqual([]); // 16.01
  });

  it('leaves the given history untouched and returns the next one', () => {
    const history = createCheckinHistory(active);
    const before = structuredClone(history);
    const evaluation = evaluateCheckin(checkinFixture(55.3), history);
    expect(history).toEqual(before);
    expect(CheckinHistorySchema.parse(evaluation.history).checkins).toEqual([
      { week: 1, checkin: checkinFixture(55.3) },
    ]);
  });
});

describe('appendCheckin', () => {
  it('is the history of the evaluation', () => {
    const history = createCheckinHistory(intakeFixture());
    const checkin = checkinFixture(55.4, { cycle_day: 16 });
    expect(appendCheckin(history, checkin)).toEqual(evaluateCheckin(checkin, history).history);
  });
});
