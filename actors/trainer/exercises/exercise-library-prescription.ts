import type { ExerciseGroup } from '../../../protocol/trainer/tools/exercise-group.ts';
import type { Exercise, GoalShare, MuscleShare } from '../../../protocol/trainer/tools/exercise.ts';
import type { LibraryExercise } from './exercise-library-entry.ts';

/** Primary muscles take this share of the work when an exercise also has secondary muscles. */
const PRIMARY_SHARE = 0.7;

const round2 = (value: number) => Math.round(value * 100) / 100;

/** Splits `total` evenly over `count` items in hundredths; the first item absorbs the rounding. */
function split(total: number, count: number): number[] {
  const each = round2(total / count);
  const rest = Array.from({ length: count - 1 }, () => each);
  return [round2(total - each * (count - 1)), ...rest];
}

/** Muscle shares of a library exercise: primaries 0.7 (all of it without secondaries), secondaries 0.3. */
export function muscleSharesOf(entry: LibraryExercise): MuscleShare[] {
  const primaryTotal = entry.secondary.length === 0 ? 1 : PRIMARY_SHARE;
  const primary = split(primaryTotal, entry.primary.length);
  const secondary = entry.secondary.length === 0 ? [] : split(round2(1 - primaryTotal), entry.secondary.length);
  return [
    ...entry.primary.map((muscle, i) => ({ muscle, share: primary[i] ?? 0 })),
    ...entry.secondary.map((muscle, i) => ({ muscle, share: secondary[i] ?? 0 })),
  ];
}

/** Goal shares: the user's goals this exercise serves, else the exercise's own goals, split evenly. */
function goalSharesOf(entry: LibraryExercise, preferredGoals: readonly string[] = []): GoalShare[] {
  const served = entry.goals.filter((goal) => preferredGoals.includes(goal));
  const goals = served.length > 0 ? served : entry.goals;
  const shares = split(1, goals.length);
  return goals.map((goal, i) => ({ goal, share: shares[i] ?? 0 }));
}

/** How a library exercise becomes one exercise of a workout. */
interface PrescriptionOptions {
  order: number;
  group?: ExerciseGroup;
  /** The user's goals; the exercise's goal shares favour the ones it serves. */
  goals?: readonly string[];
  reasoning?: string;
  /** Scales the default volume (sets, rounds, minutes) for shorter or longer sessions; 1 keeps it. */
  volume?: number;
}

/** Builds a valid workout exercise from a library entry and its default prescription. */
export function toWorkoutExercise(entry: LibraryExercise, options: PrescriptionOptions): Exercise {
  const volume = options.volume ?? 1;
  const scaled = (value: number, min: number) => Math.max(min, Math.round(value * volume));
  const common = {
    exercise_name: entry.name,
    order: options.order,
    muscles_utilized: muscleSharesOf(entry),
    goals_addressed: goalSharesOf(entry, options.goals),
    reasoning: options.reasoning ?? `Targets ${entry.primary.join(', ')} (${entry.goals.join(', ')}).`,
    ...(options.group ? { group: options.group } : {}),
  };
  const d = entry.defaults;
  switch (d.type) {
    case 'reps': {
      const sets = scaled(d.sets, 1);
      return {
        ...common,
        exercise_type: 'reps',
        sets,
        reps: Array.from({ length: sets }, () => d.reps),
        rest_sec: d.rest_sec,
      };
    }
    case 'hold': {
      const sets = scaled(d.sets, 1);
      return {
        ...common,
        exercise_type: 'hold',
        sets,
        hold_sec: Array.from({ length: sets }, () => d.hold_sec),
        rest_sec: d.rest_sec,
      };
    }
    case 'duration':
      return { ...common, exercise_type: 'duration', duration_min: scaled(d.duration_min, 1) };
    case 'intervals':
      return {
        ...common,
        exercise_type: 'intervals',
        rounds: scaled(d.rounds, 1),
        work_sec: d.work_sec,
        rest_sec: d.rest_sec,
      };
  }
}
