import { z } from 'zod';
import { ExerciseRefSchema } from './exercise-ref.ts';

/** What the user actually did for one exercise of the current workout. */
export const CompletedExerciseSchema = z.strictObject({
  exercise_id: ExerciseRefSchema,
  skipped: z.boolean().optional().describe('True when the exercise was skipped'),
  sets_completed: z.int().min(0).max(20).optional(),
  reps_completed: z.array(z.int().min(0).max(200)).max(20).optional().describe('Reps done in each set'),
  load_each: z.array(z.number().min(0).max(2000)).max(20).optional().describe('Load used in each set'),
  load_unit: z.enum(['kg', 'lb']).optional(),
  hold_sec_completed: z.array(z.int().min(0).max(1800)).max(20).optional(),
  duration_min: z.number().min(0).max(600).optional(),
  distance: z.number().min(0).max(1000).optional(),
  distance_unit: z.enum(['km', 'mi', 'm']).optional(),
  rounds_completed: z.int().min(0).max(100).optional(),
  rpe: z.number().min(1).max(10).optional().describe('Rate of perceived exertion, 1-10'),
  notes: z.string().max(1000).optional(),
});
export type CompletedExercise = z.infer<typeof CompletedExerciseSchema>;

/** Arguments of log_workout. */
export const LogWorkoutParamsSchema = z.strictObject({
  completed_exercises: z
    .array(CompletedExerciseSchema)
    .min(1)
    .max(40)
    .refine((list) => new Set(list.map((entry) => entry.exercise_id)).size === list.length, {
      message: 'each exercise may be logged once',
    }),
  workout_notes: z.string().max(2000).optional(),
});
export type LogWorkoutParams = z.infer<typeof LogWorkoutParamsSchema>;
