import { toErrorIssues } from '../../../protocol/runtime/runtime-error.ts';
import { LogWorkoutParamsSchema } from '../../../protocol/trainer/tools/log-workout.ts';
import { WorkoutHistoryEntrySchema, type WorkoutHistoryEntry } from '../../../protocol/trainer/workout-history.ts';
import { currentWorkout, isFailure } from './current-exercise.ts';
import { newIdOf, nowOf } from './tool-clock.ts';
import { toolFailure } from './tool-result.ts';
import { defineTool } from './trainer-tool.ts';
import { findExercise } from './workout-edits.ts';

/** What log_workout reports (spec 001 §6.4). */
export interface LogWorkoutResult {
  logged_count: number;
  total_in_workout: number;
  history_id: string;
  title: string;
}

/**
 * Appends the completed exercises of the current workout to the user's history, then clears the
 * session's workout (spec 001 §12.4). Every `exercise_id` must name an exercise of the workout;
 * nothing is written or cleared when one does not.
 */
export const logWorkoutTool = defineTool<typeof LogWorkoutParamsSchema, LogWorkoutResult>({
  name: 'log_workout',
  description:
    'Log completed exercises of the current workout to history. Each entry names the exercise by UUID or order ' +
    'number and records what was done (sets_completed, reps_completed, load_each, hold_sec_completed, duration_min, ' +
    'rounds_completed, rpe, skipped, notes). This ends the current workout.',
  parameters: LogWorkoutParamsSchema,
  terminal: false,
  writesUserData: true,
  statusMessage: { start: 'Saving your workout...', done: 'Workout logged' },
  async execute(args, ctx) {
    const workout = currentWorkout(ctx);
    if (isFailure(workout)) return workout;
    const resolved = args.completed_exercises.map((entry) => findExercise(workout.exercises, entry.exercise_id));
    const missing = resolved.flatMap((found, i) =>
      found
        ? []
        : [
            {
              path: `completed_exercises.${i}.exercise_id`,
              message: `no exercise "${args.completed_exercises[i]?.exercise_id}" in the workout`,
            },
          ],
    );
    if (missing.length > 0) {
      return toolFailure(
        'exercise_not_found',
        `Some logged exercises are not in the current workout: ${missing.map((m) => m.path).join(', ')}`,
        missing,
      );
    }
    const ids = resolved.map((found) => found?.exercise.id);
    if (new Set(ids).size !== ids.length) {
      return toolFailure('invalid_arguments', 'The same exercise is logged twice (once by id, once by order number).', [
        { path: 'completed_exercises', message: 'each exercise may be logged once' },
      ]);
    }
    if (!ctx.userData) return toolFailure('data_unavailable', 'Workout history is not available in this runtime.');
    const entry: WorkoutHistoryEntry = {
      id: newIdOf(ctx),
      completed_at: nowOf(ctx).toISOString(),
      title: workout.title,
      ...(args.workout_notes === undefined ? {} : { notes: args.workout_notes }),
      exercises: args.completed_exercises.map(({ exercise_id: _ref, ...done }, i) => {
        const exercise = resolved[i]?.exercise;
        return {
          ...done,
          exercise_name: exercise?.exercise_name ?? 'Unknown exercise',
          exercise_type: exercise?.exercise_type ?? 'reps',
          ...(exercise
            ? { muscles_utilized: exercise.muscles_utilized, goals_addressed: exercise.goals_addressed }
            : {}),
        };
      }),
    };
    const checked = WorkoutHistoryEntrySchema.safeParse(entry);
    if (!checked.success) {
      const issues = toErrorIssues(checked.error.issues);
      return toolFailure(
        'invalid_arguments',
        `The log entry is not valid: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
        issues,
      );
    }
    await ctx.userData.addWorkout(ctx.userId, checked.data);
    ctx.workouts.clear(ctx.sessionId);
    return {
      success: true,
      logged_count: args.completed_exercises.length,
      total_in_workout: workout.exercises.length,
      history_id: checked.data.id,
      title: workout.title,
    };
  },
  formatResult: (result) =>
    `Logged ${result.logged_count} of ${result.total_in_workout} exercises of "${result.title}" to the workout ` +
    `history (entry ${result.history_id}). The current workout is now closed.`,
});
