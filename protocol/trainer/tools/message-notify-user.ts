import { z } from 'zod';

/** Arguments of message_notify_user: a message, optionally delivering an artifact. */
export const MessageNotifyUserParamsSchema = z.strictObject({
  message: z.string().min(1).max(4000).describe('The message text shown to the user'),
  artifact_id: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('ID of an artifact to deliver, e.g. "art_..." from generate_workout'),
});
