import { findTrainingExercise } from '../../../actors/nutrition/coach/training-exercise-table.ts';
import type { TrainingExercise } from '../../../actors/nutrition/coach/training-exercise.ts';
import type { TrainingClientData, TrainingInput } from '../../../protocol/nutrition/training-input.ts';
import type { TrainingProgram } from '../../../protocol/nutrition/training-program.ts';

/** A training input for the spec's client: a beginner with a gym, three free days, no flags. */
export function trainingInput(
  client: Partial<TrainingClientData> = {},
  rest: {
    progress?: Partial<TrainingInput['progress_data']>;
    triggers?: Partial<TrainingInput['scientist_triggers']>;
  } = {},
): TrainingInput {
  return {
    client_data: {
      training_experience: 'beginner',
      equipment_access: 'commercial_gym',
      gym_anxiety_level: 'low',
      weeks_on_program: 0,
      current_phase: 'pre_training',
      injuries: [],
      available_days: ['monday', 'wednesday', 'friday'],
      menstrual_cycle_day: 10,
      cycle_phase: 'follicular',
      ...client,
    },
    progress_data: {
      training_log: [],
      stall_detected: false,
      consecutive_stall_sessions: 0,
      sleep_hours_avg: 7.5,
      step_count_avg: 8000,
      ...rest.progress,
    },
    scientist_triggers: {
      phase_transition_due: false,
      deload_recommended: false,
      adjustment_note: null,
      ...rest.triggers,
    },
  };
}

/** The table entry of every exercise in a program; throws if the program names an unknown one. */
export function tableEntries(program: TrainingProgram): TrainingExercise[] {
  return program.program.sessions.flatMap((session) =>
    session.exercises.map((exercise) => {
      const entry = findTrainingExercise(exercise.name);
      if (!entry) throw new Error(`"${exercise.name}" is not in the exercise table`);
      return entry;
    }),
  );
}

/** Working sets per muscle group, counted here from the sessions (one per primary group). */
export function countSets(program: TrainingProgram): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const session of program.program.sessions) {
    for (const exercise of session.exercises) {
      for (const group of findTrainingExercise(exercise.name)?.primary ?? [])
        counts[group] = (counts[group] ?? 0) + exercise.sets;
    }
  }
  return counts;
}

/** Total working sets of the week. */
export function totalSets(program: TrainingProgram): number {
  return program.program.sessions.reduce(
    (sum, session) => sum + session.exercises.reduce((inner, exercise) => inner + exercise.sets, 0),
    0,
  );
}
