import type { z } from 'zod';
import type { UserDataSourceName } from './data-source.ts';
import { CategoryGoalsSchema, MuscleGoalsSchema } from './user-goals.ts';
import { UserLocationsSchema } from './user-locations.ts';
import { UserPreferencesSchema } from './user-preferences.ts';
import { UserProfileSchema } from './user-profile.ts';
import { UserSettingsSchema } from './user-settings.ts';
import { WorkoutHistorySchema } from './workout-history.ts';

/**
 * The document schema of each stored data source: the body of `PUT /users/me/<source>` and what
 * `GET` answers. Strict, so a misspelt field is an error rather than silently dropped.
 */
export const USER_DATA_DOCUMENT_SCHEMAS = {
  user_profile: UserProfileSchema,
  user_settings: UserSettingsSchema,
  all_locations: UserLocationsSchema,
  category_goals: CategoryGoalsSchema,
  muscle_goals: MuscleGoalsSchema,
  active_preferences: UserPreferencesSchema,
  workout_history: WorkoutHistorySchema,
} as const satisfies Record<UserDataSourceName, z.ZodType>;

/** The stored document of each source. */
export type UserDataDocumentMap = {
  [K in UserDataSourceName]: z.infer<(typeof USER_DATA_DOCUMENT_SCHEMAS)[K]>;
};
/** What a client may send for each source (defaults may be left out). */
export type UserDataDocumentInputMap = {
  [K in UserDataSourceName]: z.input<(typeof USER_DATA_DOCUMENT_SCHEMAS)[K]>;
};
