import type { Equipment } from '../../../protocol/trainer/tools/equipment.ts';
import type { ExerciseType } from '../../../protocol/trainer/tools/exercise.ts';
import type { Muscle } from '../../../protocol/trainer/tools/muscle.ts';

/** Where an exercise usually sits in a session. */
export type ExerciseRole = 'warmup' | 'main' | 'conditioning' | 'cooldown';

/** Default prescription of each exercise type; `reps` and `hold_sec` apply to every set. */
export type DefaultPrescription =
  | { type: 'reps'; sets: number; reps: number; rest_sec: number }
  | { type: 'hold'; sets: number; hold_sec: number; rest_sec: number }
  | { type: 'duration'; duration_min: number }
  | { type: 'intervals'; rounds: number; work_sec: number; rest_sec: number };

/** One exercise of the built-in library. */
export interface LibraryExercise {
  /** Stable kebab-case id, e.g. `barbell-bench-press`. */
  id: string;
  name: string;
  type: ExerciseType;
  primary: readonly Muscle[];
  secondary: readonly Muscle[];
  /** Every item is needed; an empty list means bodyweight only. */
  equipment: readonly Equipment[];
  /** Goal categories the exercise serves, most important first. */
  goals: readonly string[];
  role: ExerciseRole;
  defaults: DefaultPrescription;
}

/** Goal orders shared by the strength tables: strength first, or hypertrophy first. */
export const STRENGTH_GOALS: readonly string[] = ['strength', 'hypertrophy'];
export const HYPERTROPHY_GOALS: readonly string[] = ['hypertrophy', 'strength'];

type Base = Omit<LibraryExercise, 'type' | 'defaults' | 'role'> & { role?: ExerciseRole };

/** A set/rep exercise: `[sets, reps, rest_sec]`. */
export function reps(base: Base, [sets, count, rest_sec]: [number, number, number]): LibraryExercise {
  return { role: 'main', ...base, type: 'reps', defaults: { type: 'reps', sets, reps: count, rest_sec } };
}

/** An isometric exercise: `[sets, hold_sec, rest_sec]`. */
export function hold(base: Base, [sets, hold_sec, rest_sec]: [number, number, number]): LibraryExercise {
  return { role: 'main', ...base, type: 'hold', defaults: { type: 'hold', sets, hold_sec, rest_sec } };
}

/** A continuous effort of `duration_min` minutes. */
export function duration(base: Base, duration_min: number): LibraryExercise {
  return { role: 'conditioning', ...base, type: 'duration', defaults: { type: 'duration', duration_min } };
}

/** Work/rest cycles: `[rounds, work_sec, rest_sec]`. */
export function intervals(base: Base, [rounds, work_sec, rest_sec]: [number, number, number]): LibraryExercise {
  return {
    role: 'conditioning',
    ...base,
    type: 'intervals',
    defaults: { type: 'intervals', rounds, work_sec, rest_sec },
  };
}
