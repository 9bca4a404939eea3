import type { WorkoutExercise, WorkoutSession } from '../../../protocol/trainer/tools/workout-session.ts';
import { WorkoutExerciseListSchema } from '../../../protocol/trainer/tools/workout-session.ts';
import { toErrorIssues } from '../../../protocol/runtime/runtime-error.ts';
import type { ToolContext } from './tool-context.ts';
import { toolFailure, type ToolFailure } from './tool-result.ts';
import { findExercise } from './workout-edits.ts';
import { nowOf } from './tool-clock.ts';

/** Whether a value is a tool failure rather than what was asked for. */
export const isFailure = (value: object): value is ToolFailure => 'success' in value && value.success === false;

/** The failure of an edit tool called with no workout in the session. */
const noActiveWorkout = (): ToolFailure =>
  toolFailure(
    'no_active_workout',
    'There is no active workout in this session. Call generate_workout first (or ask the user to start one).',
  );

/** The session's workout, or the no-active-workout failure. */
export function currentWorkout(ctx: ToolContext): WorkoutSession | ToolFailure {
  return ctx.workouts.get(ctx.sessionId) ?? noActiveWorkout();
}

/** The exercise named by `ref` (id or order number) in the session's workout, or why not. */
export function currentExercise(
  ctx: ToolContext,
  ref: string,
): { workout: WorkoutSession; exercise: WorkoutExercise; index: number } | ToolFailure {
  const workout = currentWorkout(ctx);
  if (isFailure(workout)) return workout;
  const found = findExercise(workout.exercises, ref);
  if (!found) {
    const range = workout.exercises.length > 0 ? `an order number 1..${workout.exercises.length}` : 'none: it is empty';
    return toolFailure(
      'exercise_not_found',
      `No exercise "${ref}" in the current workout. Use an exercise id or ${range}.`,
      [{ path: 'exercise_id', message: `no exercise with id or order "${ref}"` }],
    );
  }
  return { workout, ...found };
}

/**
 * Validates edited exercises and stores them as the session's workout; answers the failure
 * naming the bad fields instead when the edit would break the workout.
 */
export function commitExercises(
  ctx: ToolContext,
  workout: WorkoutSession,
  exercises: WorkoutExercise[],
): WorkoutSession | ToolFailure {
  const checked = WorkoutExerciseListSchema.safeParse(exercises);
  if (!checked.success) {
    const issues = toErrorIssues(checked.error.issues).map((issue) => ({
      ...issue,
      path: issue.path ? `exercises.${issue.path}` : 'exercises',
    }));
    return toolFailure(
      'invalid_workout',
      `The change would leave an invalid workout: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
      issues,
    );
  }
  return ctx.workouts.set({ ...workout, exercises: checked.data, updated_at: nowOf(ctx).toISOString() });
}
