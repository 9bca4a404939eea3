import { z } from 'zod';

/** Names an exercise of the current workout by its id (UUID) or its order number ("1"). */
export const ExerciseRefSchema = z
  .string()
  .min(1)
  .max(100)
  .describe('The exercise id (UUID) or its order number in the workout, e.g. "1"');
