import { z } from 'zod';
import { ExerciseRefSchema } from './exercise-ref.ts';

/** Arguments of remove_exercise. */
export const RemoveExerciseParamsSchema = z.strictObject({
  exercise_id: ExerciseRefSchema,
  reason: z.string().min(1).max(1000).optional(),
});
