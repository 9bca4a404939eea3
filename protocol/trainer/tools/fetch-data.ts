import { z } from 'zod';
import { DataSourceNameSchema, DataSourceParamsMapSchema } from '../data-source.ts';

/** Arguments of fetch_data: which sources, and parameters per source. */
export const FetchDataParamsSchema = z.strictObject({
  sources: z
    .array(DataSourceNameSchema)
    .min(1)
    .max(DataSourceNameSchema.options.length)
    .refine((list) => new Set(list).size === list.length, { message: 'each source may be named once' })
    .describe('Data sources to load into context'),
  params: DataSourceParamsMapSchema.optional().describe(
    'Per-source parameters, e.g. { "workout_history": { "days_back": 30, "limit": 20 } }',
  ),
});
