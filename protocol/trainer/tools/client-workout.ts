import { z } from 'zod';
import { EXERCISE_SLOT_FIELDS, exerciseUnion } from './exercise.ts';

/**
 * The client's `currentWorkout` (spec 001 §10, `POST /agent/stream` body) as far as the tools
 * can use it: the exercises it shows, usually the artifact payload it received. Ids and orders
 * may be missing (the server assigns them); other top-level fields (progress, timers) pass.
 */
export const ClientWorkoutSchema = z.looseObject({
  title: z.string().min(1).max(120).optional(),
  description: z.string().max(2000).optional(),
  artifact_id: z.string().min(1).max(100).optional(),
  exercises: z
    .array(
      exerciseUnion({
        id: z.string().min(1).max(100).optional(),
        order: EXERCISE_SLOT_FIELDS.order.optional(),
        group: EXERCISE_SLOT_FIELDS.group,
      }),
    )
    .min(1)
    .max(40),
});
