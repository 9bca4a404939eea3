import { z } from 'zod';
import { MuscleSchema } from './tools/muscle.ts';

/** How much of the user's training should go to a goal, 0.0 to 1.0. */
const ShareSchema = z.number().min(0).max(1);

/** One training goal by category ("strength", "endurance", ...) and its share. */
export const CategoryGoalSchema = z.strictObject({
  category: z.string().min(1).max(60),
  share: ShareSchema,
  description: z.string().max(500).optional(),
});
export type CategoryGoal = z.infer<typeof CategoryGoalSchema>;

/** The user's goal categories (spec 001 §5.5 `category_goals`). */
export const CategoryGoalsSchema = z.strictObject({
  goals: z
    .array(CategoryGoalSchema)
    .max(20)
    .refine((list) => new Set(list.map((goal) => goal.category)).size === list.length, {
      message: 'each category may appear once',
    }),
});

/** How much emphasis one of the 16 muscles should get. */
export const MuscleGoalSchema = z.strictObject({
  muscle: MuscleSchema,
  share: ShareSchema,
});
export type MuscleGoal = z.infer<typeof MuscleGoalSchema>;

/** The user's muscle emphasis (spec 001 §5.5 `muscle_goals`). */
export const MuscleGoalsSchema = z.strictObject({
  goals: z
    .array(MuscleGoalSchema)
    .max(16)
    .refine((list) => new Set(list.map((goal) => goal.muscle)).size === list.length, {
      message: 'each muscle may appear once',
    }),
});
