import { z } from 'zod';
import { EXERCISE_SLOT_FIELDS, exerciseUnion } from './exercise.ts';
import { ExerciseRefSchema } from './exercise-ref.ts';

/**
 * A replacement exercise: a full exercise whose slot fields may be left out, because the
 * replacement takes the old exercise's place (its order, and its group unless one is given).
 */
export const ReplacementExerciseSchema = exerciseUnion({
  order: EXERCISE_SLOT_FIELDS.order.optional().describe('Ignored: the replacement keeps the old position'),
  group: EXERCISE_SLOT_FIELDS.group.describe("Group membership; left out, the old exercise's group is kept"),
});
export type ReplacementExercise = z.infer<typeof ReplacementExerciseSchema>;

/** Arguments of swap_exercise. */
export const SwapExerciseParamsSchema = z.strictObject({
  exercise_id: ExerciseRefSchema,
  new_exercise: ReplacementExerciseSchema.describe('The full replacement exercise'),
  reason: z.string().min(1).max(1000).optional(),
});
export type SwapExerciseParams = z.infer<typeof SwapExerciseParamsSchema>;
