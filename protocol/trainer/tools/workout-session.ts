import { z } from 'zod';
import { EXERCISE_SLOT_FIELDS, exerciseUnion } from './exercise.ts';
import { refineWorkoutStructure } from './workout-structure.ts';

/** An exercise of the current workout: an exercise plus the id the server gave it. */
export const WorkoutExerciseSchema = exerciseUnion({
  id: z.string().min(1).max(100).describe('Server-assigned UUID; protected'),
  ...EXERCISE_SLOT_FIELDS,
});
export type WorkoutExercise = z.infer<typeof WorkoutExerciseSchema>;

/** Exercises of a workout in order: unique orders, well-formed groups, unique ids. */
export const WorkoutExerciseListSchema = z
  .array(WorkoutExerciseSchema)
  .max(40)
  .superRefine(refineWorkoutStructure)
  .refine((list) => new Set(list.map((exercise) => exercise.id)).size === list.length, {
    message: 'exercise ids must be unique',
  });

/**
 * The in-memory workout of one session (spec 001 §6.4 "In-memory state"): created by
 * generate_workout (or seeded from the client's `currentWorkout`), edited by swap, adjust and
 * remove, cleared by log_workout.
 */
export const WorkoutSessionSchema = z.strictObject({
  session_id: z.string().min(1),
  /** The artifact that delivered this workout; null for a workout seeded from the client. */
  artifact_id: z.string().min(1).nullable(),
  title: z.string().min(1).max(120),
  description: z.string().max(2000).optional(),
  source: z.enum(['generated', 'client']),
  exercises: WorkoutExerciseListSchema,
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
});
export type WorkoutSession = z.infer<typeof WorkoutSessionSchema>;

/** The `payload` of an `exercise_list` artifact: the exercises the client shows and runs. */
export const WorkoutArtifactPayloadSchema = z.strictObject({
  exercises: z.array(WorkoutExerciseSchema).min(1).max(40),
  description: z.string().max(2000).optional(),
  estimated_duration_min: z.int().min(1).max(600),
});
export type WorkoutArtifactPayload = z.infer<typeof WorkoutArtifactPayloadSchema>;

/** The artifact type and payload version generate_workout writes. */
export const WORKOUT_ARTIFACT_TYPE = 'exercise_list';
export const WORKOUT_ARTIFACT_SCHEMA_VERSION = '1.0';
