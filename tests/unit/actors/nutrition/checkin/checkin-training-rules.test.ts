import { describe, expect, it } from 'vitest';
import type { WeeklyCheckin } from '../../../../../protocol/nutrition/weekly-checkin.ts';
import { TrainingProgramSchema } from '../../../../../protocol/nutrition/training-program.ts';
import {
  createCheckinHistory,
  recordTrainingProgram,
} from '../../../../../actors/nutrition/checkin/checkin-history.ts';
import { updateLiftStalls } from '../../../../../actors/nutrition/checkin/checkin-training-rules.ts';
import {
  checkinFixture,
  evaluateAll,
  intakeFixture,
  weighIns,
} from '../../../../support/nutrition/scientist-fixtures.ts';

const active = intakeFixture({ training_phase: 'active_training', estimated_daily_intake_kcal: 2100 });

/** A check-in whose log has the given lifts, each progressed or not, over `sessions` sessions. */
function trained(sessions: number, lifts: Record<string, boolean>, extra: Partial<WeeklyCheckin> = {}): WeeklyCheckin {
  return checkinFixture(55.3, {
    training_log: {
      sessions_completed: sessions,
      exercises: Object.entries(lifts).map(([name, progressed]) => ({
        name,
        best_set: { weight_kg: 40, reps: 8 },
        progressed,
      })),
    },
    ...extra,
  });
}

describe('updateLiftStalls', () => {
  it("adds the week's sessions to a lift that did not progress and resets one that did", () => {
    const stalls = updateLiftStalls(
      { 'hip thrust': 2, squat: 4 },
      trained(3, { 'Hip Thrust': false, Squat: true, Row: false }),
    );
    expect(stalls).toEqual({ 'hip thrust': 5, squat: 0, row: 3 });
  });

  it('drops lifts no longer logged and keeps everything when there is no log', () => {
    expect(updateLiftStalls({ 'hip thrust': 2, squat: 4 }, trained(2, { Squat: false }))).toEqual({ squat: 6 });
    expect(updateLiftStalls({ squat: 4 }, checkinFixture(55))).toEqual({ squat: 4 });
  });
});

describe('training stall (>= 3 sessions on >= 2 lifts)', () => {
  it('fires when 2 lifts reach 3 stalled sessions, re-running only the COACH', () => {
    const [week1] = evaluateAll(createCheckinHistory(active), [
      trained(3, { 'Hip Thrust': false, 'Goblet Squat': false, Row: true }),
    ]);
    expect(week1!.adjustment).toMatchObject({
      triggers_fired: ['training_stall'],
      adjustment_type: 'training_stall',
      agents_re_run: ['COACH'],
      agents_unchanged: ['NUTRITIONIST', 'DIETITIAN', 'CHEF'],
    });
    expect(week1!.adjustment.notes[1]).toBe(
      'Training stall: 2 lifts without progress for >= 3 sessions (goblet squat 3 sessions, hip thrust 3 sessions; threshold 2 lifts) — COACH modifies the program',
    );
    expect(week1!.trainingTriggers).toMatchObject({ deload_recommended: true });
    expect(week1!.trainingInput?.progress_data).toMatchObject({ stall_detected: true, consecutive_stall_sessions: 3 });
    expect(week1!.history.lift_stall_sessions).toEqual({ 'hip thrust': 0, 'goblet squat': 0, row: 0 });
  });

  it('does not fire at 2 sessions, nor with only one stalled lift', () => {
    const evaluations = evaluateAll(createCheckinHistory(active), [
      trained(2, { 'Hip Thrust': false, 'Goblet Squat': false }),
      trained(1, { 'Hip Thrust': false, 'Goblet Squat': false }),
    ]);
    expect(evaluations[0]!.triggers).toEqual([]);
    expect(evaluations[1]!.triggers).toEqual(['training_stall']); // 2 + 1 = 3 sessions each
    const [single] = evaluateAll(createCheckinHistory(active), [
      trained(4, { 'Hip Thrust': false, 'Goblet Squat': true }),
    ]);
    expect(single!.triggers).toEqual([]);
  });

  it('counts afresh after the COACH has changed the program', () => {
    const evaluations = evaluateAll(createCheckinHistory(active), [
      trained(3, { 'Hip Thrust': false, 'Goblet Squat': false }),
      trained(2, { 'Hip Thrust': false, 'Goblet Squat': false }),
      trained(1, { 'Hip Thrust': false, 'Goblet Squat': false }),
    ]);
    expect(evaluations.map((evaluation) => evaluation.triggers)).toEqual([['training_stall'], [], ['training_stall']]);
  });
});

describe('phase transition', () => {
  it('moves pre_training to active_training when the adaptation period completes at week 4', () => {
    const history = createCheckinHistory(intakeFixture({ estimated_daily_intake_kcal: 2100 }));
    const evaluations = evaluateAll(history, weighIns(55.3, 55.6, 55.9, 56.2));
    expect(evaluations[2]!.triggers).toEqual([]);
    const week4 = evaluations[3]!;
    expect(week4.triggers).toContain('phase_transition');
    expect(week4.trainingInput?.client_data.current_phase).toBe('active_training');
    expect(week4.trainingTriggers?.phase_transition_due).toBe(true);
    expect(week4.history.last_macro_targets.training_phase).toBe('active_training');
  });

  it('is due every 8 weeks in active training', () => {
    const evaluations = evaluateAll(
      createCheckinHistory(active),
      weighIns(55.3, 55.6, 55.9, 56.2, 56.5, 56.8, 57.1, 57.4),
    );
    expect(evaluations.map((evaluation) => evaluation.triggers.includes('phase_transition'))).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      true,
    ]);
    expect(evaluations[7]!.adjustment.agents_re_run).toContain('COACH');
  });

  it("follows the COACH's own phase plan when a program was recorded", () => {
    const program = TrainingProgramSchema.parse({
      program: {
        phase: 'foundation',
        phase_week: 1,
        frequency: 1,
        total_weeks_remaining_in_phase: 5,
        sessions: [
          {
            day: 'monday',
            focus: 'full body',
            warmup: [],
            exercises: [
              {
                name: 'Squat',
                sets: 3,
                reps: '8-12',
                rest_sec: 90,
                notes: '',
                target_rpe: 7,
                progression_rule: 'double progression',
              },
            ],
          },
        ],
      },
      progression_rules: [],
      recovery_protocol: [],
      phase_transition_criteria: [],
      weekly_volume_summary: {},
    });
    const history = recordTrainingProgram(
      createCheckinHistory(intakeFixture({ estimated_daily_intake_kcal: 2100 })),
      program,
    );
    const evaluations = evaluateAll(history, weighIns(55.3, 55.6, 55.9, 56.2, 56.5, 56.8));
    // 6 planned weeks (this one and 5 more): due at week 6, not at the adaptation's week 4
    expect(evaluations.map((evaluation) => evaluation.triggers.includes('phase_transition'))).toEqual([
      false,
      false,
      false,
      false,
      false,
      true,
    ]);
    expect(evaluations[5]!.adjustment.notes).toContain(
      "Week 6: the COACH's foundation phase is planned to end (6 weeks since week 0, 6 planned) — next phase due",
    );
    expect(evaluations[5]!.history.coach_phase).toBeNull();
  });
});

describe('deload signal', () => {
  it('recommends a deload for energy and sleep quality both at 4 or less, without a trigger', () => {
    const markers = (energy: number, sleep: number) =>
      checkinFixture(55.3, { subjective_markers: { energy, sleep_quality: sleep, mood: 5, appetite: 5 } });
    const [tired] = evaluateAll(createCheckinHistory(active), [markers(4, 4)]);
    expect(tired!.triggers).toEqual([]);
    expect(tired!.history.training_signals.deload_recommended).toBe(true);
    expect(tired!.adjustment.notes[1]).toBe(
      'Energy 4/10 and sleep quality 4/10 (both <= 4) — deload recommended to the COACH',
    );
    const [fine] = evaluateAll(createCheckinHistory(active), [markers(5, 4)]);
    expect(fine!.history.training_signals.deload_recommended).toBe(false);
  });
});
