import { z } from 'zod';

/**
 * Body stats and profile (spec 001 §9.2 `user_profile`, from `app_user` and
 * `trainer_measurements`): the latest measurements, metric. Every field is optional: the agent
 * works with what the user chose to tell.
 */
export const UserProfileSchema = z.strictObject({
  display_name: z.string().min(1).max(120).optional(),
  sex: z.enum(['male', 'female', 'other']).optional(),
  age: z.int().min(13).max(120).optional(),
  height_cm: z.number().min(50).max(275).optional(),
  weight_kg: z.number().min(20).max(400).optional(),
  body_fat_pct: z.number().min(2).max(75).optional(),
  experience_level: z.enum(['beginner', 'intermediate', 'advanced']).optional(),
});
export type UserProfile = z.infer<typeof UserProfileSchema>;
