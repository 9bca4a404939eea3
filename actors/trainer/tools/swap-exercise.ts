import { SwapExerciseParamsSchema } from '../../../protocol/trainer/tools/swap-exercise.ts';
import type { WorkoutExercise } from '../../../protocol/trainer/tools/workout-session.ts';
import { commitExercises, currentExercise, isFailure } from './current-exercise.ts';
import { newIdOf } from './tool-clock.ts';
import { defineTool } from './trainer-tool.ts';
import { equipmentWarnings } from './equipment-check.ts';
import { describeExercise } from './workout-format.ts';

/** What swap_exercise reports (spec 001 §6.4). */
export interface SwapExerciseResult {
  old_exercise: WorkoutExercise;
  new_exercise: WorkoutExercise;
  new_id: string;
  reason?: string;
  /** Set when the replacement needs equipment the current location lacks (advisory). */
  warnings?: string[];
}

/**
 * Replaces one exercise of the current workout. The replacement takes the old one's place: its
 * order, and its group unless the replacement names one; it gets a new id.
 */
export const swapExerciseTool = defineTool<typeof SwapExerciseParamsSchema, SwapExerciseResult>({
  name: 'swap_exercise',
  description:
    'Replace an exercise in the current workout. exercise_id is the exercise UUID or its order number ("1"). ' +
    'new_exercise is a full exercise (same fields as in generate_workout); it keeps the old position and group.',
  parameters: SwapExerciseParamsSchema,
  terminal: false,
  statusMessage: { start: 'Finding alternative...', done: 'Exercise swapped' },
  async execute(args, ctx) {
    const target = currentExercise(ctx, args.exercise_id);
    if (isFailure(target)) return target;
    const { workout, exercise: old, index } = target;
    const { order: _ignored, group, ...fields } = args.new_exercise;
    const keptGroup = group ?? old.group;
    const replacement = {
      ...fields,
      id: newIdOf(ctx),
      order: old.order,
      ...(keptGroup ? { group: keptGroup } : {}),
    } as WorkoutExercise;
    const exercises = workout.exercises.map((exercise, i) => (i === index ? replacement : exercise));
    const committed = commitExercises(ctx, workout, exercises);
    if (isFailure(committed)) return committed;
    const stored = committed.exercises[index] ?? replacement;
    const warnings = await equipmentWarnings(ctx, [stored.exercise_name]);
    return {
      success: true,
      old_exercise: old,
      new_exercise: stored,
      new_id: stored.id,
      ...(args.reason === undefined ? {} : { reason: args.reason }),
      ...(warnings.length > 0 ? { warnings } : {}),
    };
  },
  formatResult(result) {
    return [
      `Swapped "${result.old_exercise.exercise_name}" for "${result.new_exercise.exercise_name}" (new id ${result.new_id}).`,
      describeExercise(result.new_exercise),
      ...(result.warnings ?? []).map((warning) => `Equipment warning: ${warning}`),
    ].join('\n');
  },
});
