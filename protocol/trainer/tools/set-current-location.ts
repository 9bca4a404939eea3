import { z } from 'zod';

/** Arguments of set_current_location: the id (preferred) or the name of one location. */
export const SetCurrentLocationParamsSchema = z
  .strictObject({
    location_id: z.string().min(1).max(100).optional().describe('ID of the location (preferred)'),
    location_name: z.string().min(1).max(200).optional().describe('Location name, matched case-insensitively'),
  })
  .refine((args) => args.location_id !== undefined || args.location_name !== undefined, {
    message: 'provide location_id or location_name',
    path: ['location_id'],
  });
