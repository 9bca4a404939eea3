import { z } from 'zod';

/** A day of the week, as the keys of the weekly meal template (§4.4) and training sessions. */
export const WeekdaySchema = z.enum(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
export type Weekday = z.infer<typeof WeekdaySchema>;

/** Days a client can train: at least one, each at most once. */
export const AvailableDaysSchema = z
  .array(WeekdaySchema)
  .min(1)
  .max(7)
  .refine((days) => new Set(days).size === days.length, {
    message: 'available_days must not repeat a day.',
  });
export type AvailableDays = z.infer<typeof AvailableDaysSchema>;
