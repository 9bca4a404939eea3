import { z } from 'zod';
import { WorkoutPayloadSchema } from './workout-payload.ts';

/** Arguments of generate_workout: one complete workout. */
export const GenerateWorkoutParamsSchema = z.strictObject({
  workout: WorkoutPayloadSchema,
});
export type GenerateWorkoutParams = z.infer<typeof GenerateWorkoutParamsSchema>;
