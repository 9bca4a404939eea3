import { z } from 'zod';

/** Arguments of message_ask_user: a question and optional suggested answers. */
export const MessageAskUserParamsSchema = z.strictObject({
  question: z.string().min(1).max(2000).describe('The question text'),
  options: z.array(z.string().min(1).max(200)).max(10).optional().describe('Suggested response options'),
});
