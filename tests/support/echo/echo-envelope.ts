import { z } from 'zod';
import { derivedUuid } from '../../../actors/runtime/derived-id.ts';

/** The echo system's envelope: USER -> ECHO `text`, ECHO -> USER `echo`, journaled per run. */
export const EchoEnvelopeSchema = z.strictObject({
  message_id: z.string().min(1),
  from_agent: z.enum(['USER', 'ECHO']),
  to_agent: z.enum(['USER', 'ECHO']),
  data_type: z.enum(['text', 'echo']),
  payload: z.strictObject({ text: z.string().min(1).max(1000) }),
  run_id: z.string().min(1),
});
export type EchoEnvelope = z.infer<typeof EchoEnvelopeSchema>;

/** The user's text for run `runId`: its id derives from the run, so a rebuild sends the same one. */
export function textEnvelope(runId: string, text: string): EchoEnvelope {
  return {
    message_id: derivedUuid(runId, 'text'),
    from_agent: 'USER',
    to_agent: 'ECHO',
    data_type: 'text',
    payload: { text },
    run_id: runId,
  };
}

/** ECHO's answer to `request`: the text upper-cased, its id derived from the request's. */
export function echoOf(request: EchoEnvelope): EchoEnvelope {
  return {
    message_id: derivedUuid(request.message_id, 'echo'),
    from_agent: 'ECHO',
    to_agent: 'USER',
    data_type: 'echo',
    payload: { text: request.payload.text.toUpperCase() },
    run_id: request.run_id,
  };
}
