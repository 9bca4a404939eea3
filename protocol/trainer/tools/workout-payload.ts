import { z } from 'zod';
import { ExerciseSchema } from './exercise.ts';
import { refineWorkoutStructure } from './workout-structure.ts';

/** The exercises of a workout: 1 to 40, with unique orders and well-formed groups. */
const WorkoutExercisesSchema = z.array(ExerciseSchema).min(1).max(40).superRefine(refineWorkoutStructure);

/** The `workout` argument of generate_workout (spec 001 §6.4). */
export const WorkoutPayloadSchema = z.strictObject({
  title: z.string().min(1).max(120).describe('Short title shown to the user, e.g. "Chest & Triceps Session"'),
  description: z.string().max(2000).optional().describe('One or two sentences on the intent of the workout'),
  estimated_duration_min: z.int().min(1).max(600).optional(),
  auto_start: z.boolean().optional().describe('Start the workout right away on the client (default false)'),
  exercises: WorkoutExercisesSchema.describe('The exercises, ordered by their `order` field'),
});
export type WorkoutPayload = z.infer<typeof WorkoutPayloadSchema>;
