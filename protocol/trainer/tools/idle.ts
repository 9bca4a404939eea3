import { z } from 'zod';

/** Arguments of idle: why the agent is done. */
export const IdleParamsSchema = z.strictObject({
  reason: z.string().min(1).max(1000).describe('Why the agent is going idle'),
});
