import { z } from 'zod';

/** The units the user reads weights in. */
export const WeightUnitSchema = z.enum(['kg', 'lb']);

/** The units the user reads distances in. */
const DistanceUnitSchema = z.enum(['km', 'mi']);

/**
 * App settings (spec 001 §9.2 `user_settings`): the unit preferences of the user data XML
 * (§4.4). A user who never saved settings reads kg and km.
 */
export const UserSettingsSchema = z.strictObject({
  weight_unit: WeightUnitSchema.default('kg'),
  distance_unit: DistanceUnitSchema.default('km'),
});
export type UserSettings = z.infer<typeof UserSettingsSchema>;
