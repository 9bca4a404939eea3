import { z } from 'zod';
import { WorkoutPayloadSchema } from './workout-payload.ts';

/** Arguments of generate_workout: one complete workout. */
export const GenerateWorkoutParamsSchema = z.strictObject({
  workout: WorkoutPayloadSchema,
});
