import { z } from 'zod';
import { CoscientistEnvelopeSchema } from './envelope.ts';
import { COSCIENTIST_PAYLOADS, type CoscientistMessageType } from './payloads.ts';

/**
 * A co-scientist message checked whole: the Standard Message Structure, a known `message_type`,
 * and `payload.data` valid for it (issues name `payload.data.<field>`).
 *
 * @example
 * CoscientistMessageSchema.parse({ header: { ..., message_type: 'task_result' }, payload: { data: { task_id, status: 'completed', entry_ids: [] } }, routing: { priority: 3 } });
 */
export const CoscientistMessageSchema = CoscientistEnvelopeSchema.superRefine((message, context) => {
  const type = message.header.message_type;
  const schema = (COSCIENTIST_PAYLOADS as Record<string, z.ZodType>)[type];
  if (!schema) {
    context.addIssue({
      code: 'custom',
      path: ['header', 'message_type'],
      message: `Unknown message type "${type}"; one of ${Object.keys(COSCIENTIST_PAYLOADS).join(', ')}.`,
    });
    return;
  }
  const parsed = schema.safeParse(message.payload.data);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      context.addIssue({ code: 'custom', path: ['payload', 'data', ...issue.path], message: issue.message });
    }
  }
});
export type CoscientistMessage = z.infer<typeof CoscientistMessageSchema>;

/** The `payload.data` type of a message type. */
export type PayloadOf<T extends CoscientistMessageType> = z.infer<(typeof COSCIENTIST_PAYLOADS)[T]>;
