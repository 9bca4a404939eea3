import { z } from 'zod';
import { ArtifactSchema } from './artifact.ts';
import {
  ErrorDataSchema,
  KnowledgeDataSchema,
  LlmRequestDataSchema,
  LlmResponseDataSchema,
  ToolCallDataSchema,
  ToolResultDataSchema,
  UserMessageDataSchema,
} from './event-data.ts';

/** The columns every event row has (spec 001 §7.1, `agent_session_events`). */
const EVENT_ROW_FIELDS = {
  id: z.string().min(1),
  session_id: z.string().min(1),
  /** Dense per session from 1; unique per session (`UNIQUE(session_id, sequence_number)`). */
  sequence_number: z.int().min(1),
  timestamp: z.iso.datetime({ offset: true }),
  duration_ms: z.int().min(0).nullable(),
};

function eventRow<Type extends string, Data extends z.ZodType>(type: Type, data: Data) {
  return z.strictObject({ ...EVENT_ROW_FIELDS, event_type: z.literal(type), data });
}

const UserMessageEventSchema = eventRow('user_message', UserMessageDataSchema);
const LlmRequestEventSchema = eventRow('llm_request', LlmRequestDataSchema);
const LlmResponseEventSchema = eventRow('llm_response', LlmResponseDataSchema);
const ToolCallEventSchema = eventRow('tool_call', ToolCallDataSchema);
const ToolResultEventSchema = eventRow('tool_result', ToolResultDataSchema);
const KnowledgeEventSchema = eventRow('knowledge', KnowledgeDataSchema);
const ErrorEventSchema = eventRow('error', ErrorDataSchema);
const ArtifactEventSchema = eventRow('artifact', ArtifactSchema);

/**
 * One immutable event of a session (spec 001 §7.1-7.3), discriminated by `event_type` so that
 * `data` narrows with it.
 */
export const SessionEventSchema = z.discriminatedUnion('event_type', [
  UserMessageEventSchema,
  LlmRequestEventSchema,
  LlmResponseEventSchema,
  ToolCallEventSchema,
  ToolResultEventSchema,
  KnowledgeEventSchema,
  ErrorEventSchema,
  ArtifactEventSchema,
]);
export type SessionEvent = z.infer<typeof SessionEventSchema>;

/** The event row of one type. */
export type SessionEventOf<K extends SessionEvent['event_type']> = Extract<SessionEvent, { event_type: K }>;

/**
 * What a journal keeps of one event: the row without `session_id` (the journal partition) and
 * `sequence_number` (the journal's own seq, dense and unique per partition).
 */
export type StoredSessionEvent = {
  [K in SessionEvent['event_type']]: Omit<SessionEventOf<K>, 'session_id' | 'sequence_number'>;
}[SessionEvent['event_type']];

/** The events that make up the model's context (spec 001 §7.4). */
export type ContextEvent = Extract<
  SessionEvent,
  { event_type: 'user_message' | 'tool_call' | 'tool_result' | 'knowledge' | 'artifact' }
>;
