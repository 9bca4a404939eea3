import type { IntakeData } from '../../../protocol/nutrition/intake-data.ts';
import type { TrainingInput } from '../../../protocol/nutrition/training-input.ts';
import type { AvailableDays } from '../../../protocol/nutrition/weekday.ts';
import { cyclePhaseOf, currentWeek, type CheckinHistory } from '../checkin/checkin-history.ts';

/**
 * Training days when the intake does not say (`available_days` is not in §4.1): three
 * non-consecutive days, the usual novice full-body frequency, leaving a rest day between sessions.
 */
export const DEFAULT_AVAILABLE_DAYS: AvailableDays = ['monday', 'wednesday', 'friday'];

/** What `buildTrainingInput` needs besides the intake. */
interface TrainingInputContext {
  /** The check-ins so far; absent at intake (week 0, nothing logged yet). */
  readonly history?: CheckinHistory;
}

/**
 * The SCIENTIST -> COACH payload (`training_input`, §4.6).
 *
 * - `client_data`: the intake's training answers and injuries; the week and the training phase
 *   from the history (the phase moves to `active_training` at a phase transition); cycle day and
 *   phase from the last check-in that reported them (null when untracked).
 * - `progress_data`: the last check-in's training log (its best set per lift, so `sets: 1`), the
 *   stall figures of the last evaluation, the intake's steps; `sleep_hours_avg` is null because
 *   check-ins report sleep quality (1-10), not hours.
 * - `scientist_triggers`: the phase transition, deload and note of the last evaluation.
 */
export function buildTrainingInput(intake: IntakeData, context: TrainingInputContext = {}): TrainingInput {
  const { history } = context;
  const records = history?.checkins ?? [];
  const cycleRecord = records.findLast((record) => cyclePhaseOf(record.checkin) !== undefined);
  const logRecord = records.findLast((record) => (record.checkin.training_log?.exercises.length ?? 0) > 0);
  const signals = history?.training_signals;
  return {
    client_data: {
      training_experience: intake.training_experience,
      equipment_access: intake.equipment_access,
      gym_anxiety_level: intake.gym_anxiety_level,
      weeks_on_program: history ? currentWeek(history) : (intake.weeks_on_program ?? 0),
      current_phase: history?.training_phase ?? intake.training_phase,
      injuries: [...intake.medical_history.injuries],
      available_days: [...(intake.available_days ?? DEFAULT_AVAILABLE_DAYS)],
      menstrual_cycle_day: cycleRecord?.checkin.cycle_day ?? null,
      cycle_phase: cycleRecord ? (cyclePhaseOf(cycleRecord.checkin) ?? null) : null,
    },
    progress_data: {
      training_log: (logRecord?.checkin.training_log?.exercises ?? []).map((exercise) => ({
        name: exercise.name,
        sets: 1,
        reps: exercise.best_set.reps,
        weight_kg: exercise.best_set.weight_kg,
      })),
      stall_detected: signals?.stall_detected ?? false,
      consecutive_stall_sessions: signals?.consecutive_stall_sessions ?? 0,
      sleep_hours_avg: null,
      step_count_avg: intake.avg_daily_steps,
    },
    scientist_triggers: {
      phase_transition_due: signals?.phase_transition_due ?? false,
      deload_recommended: signals?.deload_recommended ?? false,
      adjustment_note: signals?.adjustment_note ?? null,
    },
  };
}
