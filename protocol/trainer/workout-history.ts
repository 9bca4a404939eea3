import { z } from 'zod';
import { ExerciseTypeSchema, GoalSharesSchema, MuscleSharesSchema } from './tools/exercise.ts';
import { CompletedExerciseSchema } from './tools/log-workout.ts';

/**
 * One exercise as done: what it was (name, type, muscles, goals) and what `log_workout`
 * recorded of it (sets, reps, loads, ...).
 */
export const LoggedExerciseSchema = CompletedExerciseSchema.omit({ exercise_id: true }).extend({
  exercise_name: z.string().min(1).max(120),
  exercise_type: ExerciseTypeSchema,
  muscles_utilized: MuscleSharesSchema.optional(),
  goals_addressed: GoalSharesSchema.optional(),
});
export type LoggedExercise = z.infer<typeof LoggedExerciseSchema>;

/** One completed workout (spec 001 §9.2 `workout_history`). */
export const WorkoutHistoryEntrySchema = z.strictObject({
  id: z.string().min(1).max(100),
  completed_at: z.iso.datetime({ offset: true }),
  title: z.string().min(1).max(120).optional(),
  duration_min: z.number().min(0).max(600).optional(),
  notes: z.string().max(2000).optional(),
  exercises: z.array(LoggedExerciseSchema).max(40),
});
export type WorkoutHistoryEntry = z.infer<typeof WorkoutHistoryEntrySchema>;

/** A user's whole workout history, as `PUT /users/me/workout_history` replaces it. */
export const WorkoutHistorySchema = z.strictObject({
  workouts: z
    .array(WorkoutHistoryEntrySchema)
    .max(5000)
    .refine((list) => new Set(list.map((workout) => workout.id)).size === list.length, {
      message: 'workout ids must be unique',
    }),
});
