import type { Exercise } from '../../../protocol/trainer/tools/exercise.ts';

/** Seconds per rep when estimating how long a set takes. */
const SECONDS_PER_REP = 3;
/** Changeover between exercises, in seconds. */
const TRANSITION_SEC = 60;

/** Roughly how long one exercise takes, in seconds (the last set's rest is not counted). */
function estimateSeconds(exercise: Exercise): number {
  switch (exercise.exercise_type) {
    case 'reps': {
      const work = exercise.reps.reduce((total, count) => total + count * SECONDS_PER_REP, 0);
      return work + exercise.rest_sec * (exercise.sets - 1);
    }
    case 'hold':
      return exercise.hold_sec.reduce((a, b) => a + b, 0) + exercise.rest_sec * (exercise.sets - 1);
    case 'duration':
      return exercise.duration_min * 60;
    case 'intervals':
      return exercise.rounds * exercise.work_sec + (exercise.rounds - 1) * exercise.rest_sec;
  }
}

/** The `summary` of a workout artifact and of generate_workout's result. */
export interface WorkoutSummary {
  [key: string]: unknown;
  exercise_count: number;
  total_sets: number;
  estimated_duration_min: number;
  /** Muscles by their summed share over all exercises, most worked first. */
  muscles: string[];
  goals: string[];
  exercise_types: Partial<Record<Exercise['exercise_type'], number>>;
  groups: number;
}

function ranked(entries: readonly { key: string; share: number }[]): string[] {
  const totals = new Map<string, number>();
  for (const { key, share } of entries) totals.set(key, (totals.get(key) ?? 0) + share);
  return [...totals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([key]) => key);
}

/** Summarises a workout; `statedMinutes` (the agent's own estimate) wins over the computed one. */
export function summarizeWorkout(exercises: readonly Exercise[], statedMinutes?: number): WorkoutSummary {
  const seconds = exercises.reduce((total, exercise) => total + estimateSeconds(exercise) + TRANSITION_SEC, 0);
  const types: WorkoutSummary['exercise_types'] = {};
  for (const exercise of exercises) types[exercise.exercise_type] = (types[exercise.exercise_type] ?? 0) + 1;
  return {
    exercise_count: exercises.length,
    total_sets: exercises.reduce(
      (total, e) =>
        total +
        (e.exercise_type === 'reps' || e.exercise_type === 'hold'
          ? e.sets
          : e.exercise_type === 'intervals'
            ? e.rounds
            : 1),
      0,
    ),
    estimated_duration_min: statedMinutes ?? Math.min(600, Math.max(1, Math.round(seconds / 60))),
    muscles: ranked(exercises.flatMap((e) => e.muscles_utilized.map((m) => ({ key: m.muscle, share: m.share })))),
    goals: ranked(exercises.flatMap((e) => e.goals_addressed.map((g) => ({ key: g.goal, share: g.share })))),
    exercise_types: types,
    groups: new Set(exercises.flatMap((e) => (e.group ? [e.group.id] : []))).size,
  };
}
