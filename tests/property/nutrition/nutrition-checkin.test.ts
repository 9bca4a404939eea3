import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AdjustmentResultSchema } from '../../../protocol/nutrition/adjustment-result.ts';
import { MacroTargetsSchema } from '../../../protocol/nutrition/macro-targets.ts';
import { TrainingInputSchema } from '../../../protocol/nutrition/training-input.ts';
import { appendCheckin } from '../../../actors/nutrition/checkin/checkin-append.ts';
import { evaluateCheckin } from '../../../actors/nutrition/checkin/checkin-evaluation.ts';
import { CheckinHistorySchema, createCheckinHistory } from '../../../actors/nutrition/checkin/checkin-history.ts';
import { REEXECUTION_MAP } from '../../../actors/nutrition/reexecution-map.ts';
import { macroKcal } from '../../../actors/nutrition/scientist/scientist-macro-split.ts';
import { checkinStepArb, checkinsFrom, intakeArb } from '../../support/nutrition/scientist-arbitraries.ts';

const NUM_RUNS = 200;
const FOUR = ['NUTRITIONIST', 'DIETITIAN', 'CHEF', 'COACH'];
const round3 = (value: number) => Math.round(value * 1000) / 1000;

describe('weekly check-in properties', () => {
  it('keeps every result, history and target valid over random programs of up to 14 weeks', () => {
    fc.assert(
      fc.property(intakeArb, fc.array(checkinStepArb, { minLength: 1, maxLength: 14 }), (intake, steps) => {
        let history = createCheckinHistory(intake);
        for (const checkin of checkinsFrom(intake.current_weight_kg, steps)) {
          const before = history.last_macro_targets;
          const evaluation = evaluateCheckin(checkin, history);
          const result = AdjustmentResultSchema.parse(evaluation.adjustment);

          // no_change exactly when nothing fired
          expect(result.adjustment_type === null).toBe(result.triggers_fired.length === 0);
          expect(evaluation.triggers).toEqual(result.triggers_fired);
          // the agent lists partition the four agents, re-run being the union of the fired rows
          expect([...result.agents_re_run, ...result.agents_unchanged].sort()).toEqual([...FOUR].sort());
          const union = new Set(result.triggers_fired.flatMap((trigger) => REEXECUTION_MAP[trigger].agents_re_run));
          expect(new Set(result.agents_re_run)).toEqual(union);

          // delta output: fields present exactly when they changed
          const after = evaluation.history.last_macro_targets;
          if (result.adjustment_type !== null) {
            expect('new_target_intake_kcal' in result).toBe(after.target_intake_kcal !== before.target_intake_kcal);
            const macrosChanged = ['protein_g', 'fat_g', 'carbs_g'].some(
              (key) => after[key as 'fat_g'] !== before[key as 'fat_g'],
            );
            expect('new_macros' in result).toBe(macrosChanged);
          } else {
            expect(after.target_intake_kcal).toBe(before.target_intake_kcal);
          }

          // the targets stay sound after every adjustment
          MacroTargetsSchema.parse(after);
          expect(Math.abs(macroKcal(after) - after.target_intake_kcal)).toBeLessThanOrEqual(
            after.target_intake_kcal * 0.01,
          );
          expect((after.fat_g * 9) / after.target_intake_kcal).toBeGreaterThanOrEqual(0.25);

          // the COACH input comes exactly when the COACH re-runs
          expect(evaluation.trainingInput !== undefined).toBe(
            (result.agents_re_run as readonly string[]).includes('COACH'),
          );
          if (evaluation.trainingInput) TrainingInputSchema.parse(evaluation.trainingInput);

          expect(appendCheckin(history, checkin)).toEqual(evaluation.history);
          history = CheckinHistorySchema.parse(evaluation.history);
        }
        expect(history.checkins.map((record) => record.week)).toEqual(
          steps.map((_, index) => history.start_week + index + 1),
        );
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('fires the gain rules exactly as §7.3 states them (a model of the rules, from the raw weights)', () => {
    fc.assert(
      fc.property(intakeArb, fc.array(checkinStepArb, { minLength: 1, maxLength: 14 }), (intake, steps) => {
        let history = createCheckinHistory(intake);
        let previousWeight = intake.current_weight_kg;
        const gains = new Map<number, number>();
        let lastAdjustment = -1;
        for (const checkin of checkinsFrom(intake.current_weight_kg, steps)) {
          const evaluation = evaluateCheckin(checkin, history);
          const week = evaluation.week;
          gains.set(week, round3(checkin.weight_kg - previousWeight));
          previousWeight = checkin.weight_kg;
          const counts = (w: number) => gains.has(w) && w > 4 && w > lastAdjustment;
          const low = [week - 1, week].every((w) => counts(w) && gains.get(w)! < 0.25);
          const high = counts(week) && gains.get(week)! > 0.75;
          const fired = evaluation.triggers;

          expect(fired.includes('calorie_increase')).toBe(low && history.tier === 2);
          if (low && history.tier < 2) expect(fired).toContain('tier_progression');
          if (high) {
            const floored = evaluation.adjustment.notes.some((note) => note.includes('already at the BMR floor'));
            expect(fired.includes('calorie_decrease')).toBe(!floored);
          } else {
            expect(fired).not.toContain('calorie_decrease');
          }
          const amount = (evaluation.adjustment as { adjustment_amount_kcal?: number }).adjustment_amount_kcal;
          if (fired.includes('calorie_increase')) expect(amount).toBe(200);
          if (fired.includes('calorie_decrease')) expect(amount).toBe(-150);
          if (fired.some((t) => t === 'calorie_increase' || t === 'calorie_decrease' || t === 'tier_progression')) {
            lastAdjustment = week;
          }
          history = evaluation.history;
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
