import { RemoveExerciseParamsSchema } from '../../../protocol/trainer/tools/remove-exercise.ts';
import type { WorkoutExercise } from '../../../protocol/trainer/tools/workout-session.ts';
import { commitExercises, currentExercise, isFailure } from './current-exercise.ts';
import { defineTool } from './trainer-tool.ts';
import { formatWorkout } from './workout-format.ts';
import { removeExerciseAt } from './workout-edits.ts';

/** What remove_exercise reports (spec 001 §6.4). */
export interface RemoveExerciseResult {
  removed_exercise: WorkoutExercise;
  remaining_count: number;
  reason?: string;
  /** The workout after the removal, as the model reads it (orders renumbered). */
  workout: string;
}

/**
 * Removes one exercise; the rest are renumbered 1..n, and a group left too small for its type
 * (a superset of one) is dissolved.
 */
export const removeExerciseTool = defineTool<typeof RemoveExerciseParamsSchema, RemoveExerciseResult>({
  name: 'remove_exercise',
  description:
    'Remove an exercise from the current workout. exercise_id is the exercise UUID or its order number ("1"). ' +
    'The remaining exercises are renumbered.',
  parameters: RemoveExerciseParamsSchema,
  terminal: false,
  statusMessage: { start: 'Removing exercise...', done: 'Exercise removed' },
  async execute(args, ctx) {
    const target = currentExercise(ctx, args.exercise_id);
    if (isFailure(target)) return target;
    const committed = commitExercises(ctx, target.workout, removeExerciseAt(target.workout.exercises, target.index));
    if (isFailure(committed)) return committed;
    return {
      success: true,
      removed_exercise: target.exercise,
      remaining_count: committed.exercises.length,
      ...(args.reason === undefined ? {} : { reason: args.reason }),
      workout: formatWorkout(committed),
    };
  },
  formatResult(result) {
    return `Removed "${result.removed_exercise.exercise_name}"; ${result.remaining_count} exercises remain.\n${result.workout}`;
  },
});
