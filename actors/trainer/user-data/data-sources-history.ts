import type { Muscle } from '../../../protocol/trainer/tools/muscle.ts';
import type { LoggedExercise, WorkoutHistoryEntry } from '../../../protocol/trainer/workout-history.ts';
import { formatNumber, formatShare } from './data-sources-format.ts';

/** `workout_history` returns this many workouts unless `limit` says otherwise (spec 001 §9.2). */
export const DEFAULT_HISTORY_LIMIT = 10;
/** The window of `exercise_distribution` without `days_back` (the spec names none; a month). */
export const DEFAULT_DISTRIBUTION_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The workouts `workout_history` fetched, with the scope it was fetched with. */
export interface WorkoutHistoryData {
  workouts: WorkoutHistoryEntry[];
  limit: number;
  days_back: number | null;
}

/** Workouts completed in the last `daysBack` days (all when null), newest first. */
function workoutsWithin(workouts: readonly WorkoutHistoryEntry[], daysBack: number | null, now: Date) {
  const since = daysBack === null ? Number.NEGATIVE_INFINITY : now.getTime() - daysBack * DAY_MS;
  return workouts
    .filter((workout) => Date.parse(workout.completed_at) >= since)
    .sort((a, b) => Date.parse(b.completed_at) - Date.parse(a.completed_at));
}

/** The `limit` most recent workouts within `days_back` (spec 001 §9.2). */
export function selectWorkoutHistory(
  workouts: readonly WorkoutHistoryEntry[],
  params: { limit?: number; days_back?: number },
  now: Date,
): WorkoutHistoryData {
  const limit = params.limit ?? DEFAULT_HISTORY_LIMIT;
  const daysBack = params.days_back ?? null;
  return { workouts: workoutsWithin(workouts, daysBack, now).slice(0, limit), limit, days_back: daysBack };
}

function formatLoggedExercise(exercise: LoggedExercise): string {
  const parts: string[] = [];
  const list = (values: readonly number[]) => values.map(formatNumber).join('/');
  if (exercise.skipped) parts.push('skipped');
  if (exercise.sets_completed !== undefined) parts.push(`${exercise.sets_completed} sets`);
  if (exercise.reps_completed?.length) parts.push(`reps ${list(exercise.reps_completed)}`);
  if (exercise.load_each?.length) parts.push(`load ${list(exercise.load_each)}${exercise.load_unit ?? ''}`);
  if (exercise.hold_sec_completed?.length) parts.push(`hold ${list(exercise.hold_sec_completed)}s`);
  if (exercise.duration_min !== undefined) parts.push(`${formatNumber(exercise.duration_min)} min`);
  if (exercise.distance !== undefined) parts.push(`${formatNumber(exercise.distance)}${exercise.distance_unit ?? ''}`);
  if (exercise.rounds_completed !== undefined) parts.push(`${exercise.rounds_completed} rounds`);
  if (exercise.rpe !== undefined) parts.push(`RPE ${formatNumber(exercise.rpe)}`);
  if (exercise.notes) parts.push(`note: ${exercise.notes}`);
  return `  - ${exercise.exercise_name} (${exercise.exercise_type})${parts.length > 0 ? `: ${parts.join(', ')}` : ''}`;
}

/** `workout_history`: one block per workout, newest first. */
export function formatWorkoutHistory(data: WorkoutHistoryData): string {
  const scope = data.days_back === null ? '' : ` in the last ${data.days_back} days`;
  if (data.workouts.length === 0) return `No workouts logged${scope}.`;
  const count = `${data.workouts.length} workout${data.workouts.length === 1 ? '' : 's'}`;
  const lines = [`${count}${scope}, most recent first (limit ${data.limit}):`];
  for (const workout of data.workouts) {
    const duration = workout.duration_min === undefined ? '' : ` (${formatNumber(workout.duration_min)} min)`;
    lines.push(`- ${workout.completed_at.slice(0, 10)} ${workout.title ?? 'Workout'}${duration}`);
    lines.push(...workout.exercises.map(formatLoggedExercise));
    if (workout.notes) lines.push(`  Notes: ${workout.notes}`);
  }
  return lines.join('\n');
}

/** How the exercises done in a window spread over muscles and goals; shares sum to 1. */
export interface ExerciseDistribution {
  days_back: number;
  workout_count: number;
  exercise_count: number;
  muscles: { muscle: Muscle; share: number }[];
  goals: { goal: string; share: number }[];
}

function normalize<K extends string>(totals: Map<K, number>): { key: K; share: number }[] {
  const sum = [...totals.values()].reduce((a, b) => a + b, 0);
  return [...totals.entries()]
    .map(([key, value]) => ({ key, share: sum === 0 ? 0 : value / sum }))
    .sort((a, b) => b.share - a.share || a.key.localeCompare(b.key));
}

/** Sums the muscle and goal shares of every exercise done (not skipped) in the window. */
export function computeExerciseDistribution(
  workouts: readonly WorkoutHistoryEntry[],
  daysBack: number,
  now: Date,
): ExerciseDistribution {
  const within = workoutsWithin(workouts, daysBack, now);
  const muscles = new Map<Muscle, number>();
  const goals = new Map<string, number>();
  let exerciseCount = 0;
  for (const exercise of within.flatMap((workout) => workout.exercises)) {
    if (exercise.skipped) continue;
    exerciseCount += 1;
    for (const { muscle, share } of exercise.muscles_utilized ?? []) {
      muscles.set(muscle, (muscles.get(muscle) ?? 0) + share);
    }
    for (const { goal, share } of exercise.goals_addressed ?? []) goals.set(goal, (goals.get(goal) ?? 0) + share);
  }
  return {
    days_back: daysBack,
    workout_count: within.length,
    exercise_count: exerciseCount,
    muscles: normalize(muscles).map(({ key, share }) => ({ muscle: key, share })),
    goals: normalize(goals).map(({ key, share }) => ({ goal: key, share })),
  };
}

const orNone = (lines: string[]) => (lines.length === 0 ? ['  - none recorded'] : lines);

/** `exercise_distribution`: muscle and goal percentages over the window. */
export function formatExerciseDistribution(distribution: ExerciseDistribution): string {
  const { days_back, workout_count, exercise_count } = distribution;
  if (exercise_count === 0) return `No exercises logged in the last ${days_back} days.`;
  const lines = [
    `Exercise distribution over the last ${days_back} days (${workout_count} workouts, ${exercise_count} exercises):`,
    'Muscles:',
    ...orNone(distribution.muscles.map(({ muscle, share }) => `  - ${muscle}: ${formatShare(share)}`)),
    'Goals:',
    ...orNone(distribution.goals.map(({ goal, share }) => `  - ${goal}: ${formatShare(share)}`)),
  ];
  return lines.join('\n');
}
