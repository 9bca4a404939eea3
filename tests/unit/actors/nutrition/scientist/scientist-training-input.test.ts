import { describe, expect, it } from 'vitest';
import { TrainingInputSchema } from '../../../../../protocol/nutrition/training-input.ts';
import { appendCheckin } from '../../../../../actors/nutrition/checkin/checkin-append.ts';
import { createCheckinHistory } from '../../../../../actors/nutrition/checkin/checkin-history.ts';
import {
  DEFAULT_AVAILABLE_DAYS,
  buildTrainingInput,
} from '../../../../../actors/nutrition/scientist/scientist-training-input.ts';
import { checkinFixture, intakeFixture } from '../../../../support/nutrition/scientist-fixtures.ts';

describe('buildTrainingInput', () => {
  it('builds the week-0 input from the intake alone', () => {
    const intake = intakeFixture({ medical_history: { medications: [], conditions: [], injuries: ['left knee'] } });
    const input = TrainingInputSchema.parse(buildTrainingInput(intake));
    expect(input.client_data).toEqual({
      training_experience: 'none',
      equipment_access: 'home_minimal',
      gym_anxiety_level: 'high',
      weeks_on_program: 0,
      current_phase: 'pre_training',
      injuries: ['left knee'],
      available_days: DEFAULT_AVAILABLE_DAYS,
      menstrual_cycle_day: null,
      cycle_phase: null,
    });
    expect(input.progress_data).toEqual({
      training_log: [],
      stall_detected: false,
      consecutive_stall_sessions: 0,
      sleep_hours_avg: null,
      step_count_avg: 8000,
    });
    expect(input.scientist_triggers).toEqual({
      phase_transition_due: false,
      deload_recommended: false,
      adjustment_note: null,
    });
  });

  it('uses the intake days when given', () => {
    const input = buildTrainingInput(intakeFixture({ available_days: ['tuesday', 'saturday'] }));
    expect(input.client_data.available_days).toEqual(['tuesday', 'saturday']);
  });

  it('takes the week, last log, cycle and stall from the history', () => {
    const intake = intakeFixture();
    const log = (progressed: boolean) => ({
      sessions_completed: 3,
      exercises: [
        { name: 'Hip Thrust', best_set: { weight_kg: 45, reps: 12 }, progressed },
        { name: 'Goblet Squat', best_set: { weight_kg: 16, reps: 10 }, progressed },
      ],
    });
    let history = createCheckinHistory(intake);
    history = appendCheckin(history, checkinFixture(55.3, { cycle_day: 10, training_log: log(true) }));
    history = appendCheckin(history, checkinFixture(55.6, { training_log: log(false) }));
    const input = TrainingInputSchema.parse(buildTrainingInput(intake, { history }));
    expect(input.client_data.weeks_on_program).toBe(2);
    expect(input.client_data.menstrual_cycle_day).toBe(10);
    expect(input.client_data.cycle_phase).toBe('follicular');
    expect(input.progress_data.training_log).toEqual([
      { name: 'Hip Thrust', sets: 1, reps: 12, weight_kg: 45 },
      { name: 'Goblet Squat', sets: 1, reps: 10, weight_kg: 16 },
    ]);
    // 3 sessions without progress on 2 lifts: the stall of week 2
    expect(input.progress_data.stall_detected).toBe(true);
    expect(input.progress_data.consecutive_stall_sessions).toBe(3);
    expect(input.scientist_triggers.deload_recommended).toBe(true);
    expect(input.scientist_triggers.adjustment_note).toMatch(/goblet squat 3 sessions, hip thrust 3 sessions/);
  });
});
