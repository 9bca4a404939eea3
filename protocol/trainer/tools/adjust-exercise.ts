import { z } from 'zod';
import { EXERCISE_COMMON_FIELDS, EXERCISE_TYPE_FIELDS } from './exercise.ts';
import { ExerciseRefSchema } from './exercise-ref.ts';

/** Fields that identify an exercise and so can never be adjusted (spec 001 §6.4). */
const PROTECTED_EXERCISE_FIELDS = ['id', 'type', 'exercise_type'] as const;

const { reps, hold, duration, intervals } = EXERCISE_TYPE_FIELDS;

/**
 * The fields an adjustment may set. Optional prescription fields also accept `null`, which
 * clears them (e.g. `load_each: null` turns a loaded lift into a bodyweight one). Whether a
 * field fits the exercise's type is checked against the exercise once the change is applied.
 */
export const ExerciseAdjustmentsSchema = z
  .strictObject(
    {
      ...EXERCISE_COMMON_FIELDS,
      sets: reps.sets,
      reps: reps.reps,
      rest_sec: z.int().min(0).max(3600).describe('Rest between sets or rounds in seconds'),
      load_each: reps.load_each.unwrap().nullable(),
      load_unit: reps.load_unit.unwrap().nullable(),
      hold_sec: hold.hold_sec,
      duration_min: duration.duration_min,
      distance: duration.distance.unwrap().nullable(),
      distance_unit: duration.distance_unit.unwrap().nullable(),
      target_pace: duration.target_pace.unwrap().nullable(),
      rounds: intervals.rounds,
      work_sec: intervals.work_sec,
    },
    {
      error: (issue) => {
        if (issue.code !== 'unrecognized_keys') return undefined;
        const keys = issue.keys.map((key) => `"${key}"`).join(', ');
        const protectedOnes = issue.keys.filter((key) =>
          (PROTECTED_EXERCISE_FIELDS as readonly string[]).includes(key),
        );
        return protectedOnes.length > 0
          ? `${keys} cannot be adjusted: id and type are protected (swap the exercise to change its type)`
          : `${keys} cannot be adjusted (order and group change through swap/remove; unknown fields are rejected)`;
      },
    },
  )
  .partial()
  .refine((adjustments) => Object.keys(adjustments).length > 0, { message: 'name at least one field to adjust' });
export type ExerciseAdjustments = z.infer<typeof ExerciseAdjustmentsSchema>;

/** Arguments of adjust_exercise. */
export const AdjustExerciseParamsSchema = z.strictObject({
  exercise_id: ExerciseRefSchema,
  adjustments: ExerciseAdjustmentsSchema.describe(
    'Fields to update, e.g. { "sets": 4, "reps": [8, 8, 8, 8] }. id and exercise_type are protected.',
  ),
});
export type AdjustExerciseParams = z.infer<typeof AdjustExerciseParamsSchema>;
