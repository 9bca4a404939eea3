import { z } from 'zod';

/** What a preference is about. */
const PreferenceTypeSchema = z.enum(['exercise', 'equipment', 'schedule', 'injury', 'intensity', 'general']);

/**
 * One standing instruction ("no jumping: sore knee"). Only active, unexpired preferences reach
 * the agent (`active_preferences`).
 */
export const PreferenceSchema = z.strictObject({
  id: z.string().min(1).max(100),
  type: PreferenceTypeSchema.default('general'),
  description: z.string().min(1).max(1000),
  active: z.boolean().default(true),
  expires_at: z.iso.datetime({ offset: true }).optional(),
});
export type Preference = z.infer<typeof PreferenceSchema>;

/** The user's preferences (spec 001 §5.5 `active_preferences`). */
export const UserPreferencesSchema = z.strictObject({
  preferences: z
    .array(PreferenceSchema)
    .max(100)
    .refine((list) => new Set(list.map((preference) => preference.id)).size === list.length, {
      message: 'preference ids must be unique',
    }),
});
