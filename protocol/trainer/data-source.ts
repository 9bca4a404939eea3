import { z } from 'zod';

/** The eight data sources the agent can load (spec 001 §6.5 `fetch_data`, §5.5, §9.2). */
export const DataSourceNameSchema = z.enum([
  'user_profile',
  'category_goals',
  'muscle_goals',
  'active_preferences',
  'workout_history',
  'exercise_distribution',
  'user_settings',
  'all_locations',
]);
export type DataSourceName = z.infer<typeof DataSourceNameSchema>;

/**
 * The sources a user stores as documents (`PUT /users/me/<source>`). `exercise_distribution` is
 * not among them: it is computed from `workout_history`.
 */
export const UserDataSourceNameSchema = DataSourceNameSchema.exclude(['exercise_distribution']);
export type UserDataSourceName = z.infer<typeof UserDataSourceNameSchema>;

/**
 * Parameters of one fetch. `workout_history` reads `limit` (default 10) and `days_back`;
 * `exercise_distribution` reads `days_back`; the other sources take none and ignore these.
 */
export const DataSourceParamsSchema = z.strictObject({
  limit: z.int().min(1).max(500).optional(),
  days_back: z.int().min(1).max(3650).optional(),
});
export type DataSourceParams = z.infer<typeof DataSourceParamsSchema>;

/** Per-source parameters, as `fetch_data`'s `params` and the initializer's `days_back` give them. */
export const DataSourceParamsMapSchema = z.partialRecord(DataSourceNameSchema, DataSourceParamsSchema);
export type DataSourceParamsMap = z.infer<typeof DataSourceParamsMapSchema>;
