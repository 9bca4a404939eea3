import { z } from 'zod';
import { WeightUnitSchema } from './user-settings.ts';

/** A coarse kind of equipment, shown in brackets in the user data XML ("Dumbbells (free_weights)"). */
const EquipmentCategorySchema = z.enum([
  'free_weights',
  'machines',
  'cables',
  'cardio',
  'bodyweight',
  'accessories',
  'other',
]);

/** One piece of equipment at a location, with the loads available if it has any. */
export const EquipmentItemSchema = z
  .strictObject({
    name: z.string().min(1).max(120),
    type: EquipmentCategorySchema.optional(),
    weights: z.array(z.number().positive().max(1000)).min(1).max(100).optional(),
    weight_unit: WeightUnitSchema.optional(),
  })
  .refine((item) => item.weights === undefined || item.weight_unit !== undefined, {
    message: 'weight_unit is required when weights are given',
    path: ['weight_unit'],
  });
export type EquipmentItem = z.infer<typeof EquipmentItemSchema>;

/** A place the user trains at (spec 001 §9.2 `all_locations`, from `user_locations`). */
export const UserLocationSchema = z.strictObject({
  id: z.string().min(1).max(100),
  name: z.string().min(1).max(200),
  description: z.string().max(1000).optional(),
  /** The active location; `set_current_location` moves this flag (spec 001 §6.6). */
  current_location: z.boolean().default(false),
  equipment: z.array(EquipmentItemSchema).max(200).default([]),
});
export type UserLocation = z.infer<typeof UserLocationSchema>;

/** All of a user's locations: unique ids, at most one current. */
export const UserLocationsSchema = z.strictObject({
  locations: z
    .array(UserLocationSchema)
    .max(50)
    .refine((list) => new Set(list.map((location) => location.id)).size === list.length, {
      message: 'location ids must be unique',
    })
    .refine((list) => list.filter((location) => location.current_location).length <= 1, {
      message: 'at most one location may be the current location',
    }),
});
