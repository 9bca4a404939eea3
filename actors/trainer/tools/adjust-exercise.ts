import { toErrorIssues } from '../../../protocol/runtime/runtime-error.ts';
import {
  AdjustExerciseParamsSchema,
  type ExerciseAdjustments,
} from '../../../protocol/trainer/tools/adjust-exercise.ts';
import { WorkoutExerciseSchema, type WorkoutExercise } from '../../../protocol/trainer/tools/workout-session.ts';
import { commitExercises, currentExercise, isFailure } from './current-exercise.ts';
import { toolFailure } from './tool-result.ts';
import { defineTool } from './trainer-tool.ts';
import { describeExercise } from './workout-format.ts';

/** What adjust_exercise reports (spec 001 §6.4). */
export interface AdjustExerciseResult {
  exercise_id: string;
  exercise_name: string;
  /** The changes as applied, including per-set lists resized to a new `sets`. */
  adjustments: Record<string, unknown>;
  /** The previous value of each adjusted field; null where it was not set. */
  old_values: Record<string, unknown>;
  exercise: WorkoutExercise;
}

/** Per-set lists that follow `sets` when only `sets` changes. */
const PER_SET_LISTS = ['reps', 'hold_sec', 'load_each'] as const;

/** Stretches or cuts a per-set list to `length`, repeating its last entry. */
function resize(list: readonly number[], length: number): number[] {
  const last = list[list.length - 1] ?? 0;
  return Array.from({ length }, (_, i) => list[i] ?? last);
}

/**
 * Applies adjustments to an exercise: `null` clears an optional field, and a new `sets` resizes
 * the per-set lists the adjustment does not set itself (3 x [10,10,10] to sets 4 gives 4 x 10).
 */
function applyAdjustments(
  exercise: WorkoutExercise,
  adjustments: ExerciseAdjustments,
): { candidate: Record<string, unknown>; applied: Record<string, unknown>; oldValues: Record<string, unknown> } {
  const before = exercise as Record<string, unknown>;
  const applied: Record<string, unknown> = { ...adjustments };
  const sets = adjustments.sets;
  if (sets !== undefined) {
    for (const list of PER_SET_LISTS) {
      const current = before[list];
      if (!(list in adjustments) && Array.isArray(current)) applied[list] = resize(current as number[], sets);
    }
  }
  const candidate: Record<string, unknown> = { ...before };
  const oldValues: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(applied)) {
    oldValues[field] = before[field] ?? null;
    if (value === null) delete candidate[field];
    else candidate[field] = value;
  }
  return { candidate, applied, oldValues };
}

/**
 * Changes fields of one exercise. `id` and `exercise_type` are protected: the parameter schema
 * rejects them by name, so an exercise never changes identity or type here (swap it instead).
 */
export const adjustExerciseTool = defineTool<typeof AdjustExerciseParamsSchema, AdjustExerciseResult>({
  name: 'adjust_exercise',
  description:
    'Modify parameters of an existing exercise in the current workout. exercise_id is the exercise UUID or its ' +
    'order number ("1"). adjustments holds only the fields to change (e.g. {"sets": 4} or {"rest_sec": 60}); ' +
    'changing sets alone resizes reps/hold_sec/load_each. id and exercise_type are protected: swap instead.',
  parameters: AdjustExerciseParamsSchema,
  terminal: false,
  statusMessage: { start: 'Adjusting exercise...', done: 'Exercise updated' },
  async execute(args, ctx) {
    const target = currentExercise(ctx, args.exercise_id);
    if (isFailure(target)) return target;
    const { workout, exercise, index } = target;
    const { candidate, applied, oldValues } = applyAdjustments(exercise, args.adjustments);
    const checked = WorkoutExerciseSchema.safeParse(candidate);
    if (!checked.success) {
      const issues = toErrorIssues(checked.error.issues).map((issue) => ({
        ...issue,
        path: issue.path ? `adjustments.${issue.path}` : 'adjustments',
      }));
      return toolFailure(
        'invalid_arguments',
        `The adjustments do not fit "${exercise.exercise_name}" (a ${exercise.exercise_type} exercise): ` +
          issues.map((issue) => `${issue.path}: ${issue.message}`).join('; '),
        issues,
      );
    }
    const committed = commitExercises(
      ctx,
      workout,
      workout.exercises.map((current, i) => (i === index ? checked.data : current)),
    );
    if (isFailure(committed)) return committed;
    return {
      success: true,
      exercise_id: checked.data.id,
      exercise_name: checked.data.exercise_name,
      adjustments: applied,
      old_values: oldValues,
      exercise: checked.data,
    };
  },
  formatResult(result) {
    const changes = Object.keys(result.adjustments)
      .map(
        (field) =>
          `${field}: ${JSON.stringify(result.old_values[field])} -> ${JSON.stringify(result.adjustments[field])}`,
      )
      .join(', ');
    return `Adjusted "${result.exercise_name}" (${changes}).\n${describeExercise(result.exercise)}`;
  },
});
