import { z } from 'zod';
import { ArtifactSchema } from './artifact.ts';
import { TokenUsageSchema } from '../runtime/token-usage.ts';

/** The eight event types of spec 001 §7.2, spelled as stored (`event_type`). */
export const EventTypeSchema = z.enum([
  'user_message',
  'llm_request',
  'llm_response',
  'tool_call',
  'tool_result',
  'knowledge',
  'error',
  'artifact',
]);
export type EventType = z.infer<typeof EventTypeSchema>;

/** The event types that go into the model's context (spec 001 §7.4); the rest are observability only. */
export const CONTEXT_EVENT_TYPES = ['user_message', 'tool_call', 'tool_result', 'knowledge', 'artifact'] as const;

const JsonObjectSchema = z.record(z.string(), z.unknown());

/** `user_message`: what the user typed. Never blank: the model API refuses blank text blocks. */
export const UserMessageDataSchema = z.strictObject({ message: z.string().regex(/\S/, 'message must not be blank') });

/**
 * `llm_request`: the prompt as sent, for replay and debugging; `estimated_tokens` always counts
 * the whole prompt. `prompt` is the whole prompt as JSON (`{"tools","system","messages"}`),
 * except when `prompt_from_message` is set: then it holds only what changed since the session's
 * previous `llm_request` (`{"messages"}`, with `"tools"` or `"system"` only when those changed),
 * and the messages before index `prompt_from_message` are those of the previous request. So a
 * session's log does not store its growing conversation again at every iteration; reading its
 * requests in order gives every prompt whole.
 */
export const LlmRequestDataSchema = z.strictObject({
  model: z.string().min(1),
  prompt: z.string(),
  estimated_tokens: z.int().min(0),
  prompt_from_message: z.int().min(0).optional(),
});

/** `llm_response`: the raw response with its token usage and cost; `endSession` sums these. */
export const LlmResponseDataSchema = z.strictObject({
  raw_response: JsonObjectSchema,
  tokens: TokenUsageSchema,
  cost_cents: z.number().min(0),
});
export type LlmResponseData = z.infer<typeof LlmResponseDataSchema>;

/** `tool_call`: one tool the model chose; `call_id` is the model's `tool_use` id. */
export const ToolCallDataSchema = z.strictObject({
  tool_name: z.string().min(1),
  arguments: JsonObjectSchema,
  call_id: z.string().min(1),
});

/** `tool_result`: the outcome of the tool call with the same `call_id`. */
export const ToolResultDataSchema = z.strictObject({
  tool_name: z.string().min(1),
  result: z.unknown(),
  success: z.boolean(),
  call_id: z.string().min(1),
});
export type ToolResultData = z.infer<typeof ToolResultDataSchema>;

/** `knowledge`: formatted data injected into the context (a data source, or `current_workout_session`). */
export const KnowledgeDataSchema = z.strictObject({
  source: z.string().min(1),
  data: z.string(),
});

/** `error`: anything that went wrong; `context` names where (`context_init`, `tool:<name>`, ...). */
export const ErrorDataSchema = z.strictObject({
  message: z.string(),
  stack: z.string().nullable().default(null),
  context: z.string().nullable().default(null),
});
export type ErrorData = z.infer<typeof ErrorDataSchema>;

/** The data schema of each event type (spec 001 §7.3). */
export const EVENT_DATA_SCHEMAS = {
  user_message: UserMessageDataSchema,
  llm_request: LlmRequestDataSchema,
  llm_response: LlmResponseDataSchema,
  tool_call: ToolCallDataSchema,
  tool_result: ToolResultDataSchema,
  knowledge: KnowledgeDataSchema,
  error: ErrorDataSchema,
  artifact: ArtifactSchema,
} as const satisfies Record<EventType, z.ZodType>;

/** The data a caller passes when appending (defaults, such as `error.stack`, may be left out). */
export type EventDataInputMap = { [K in EventType]: z.input<(typeof EVENT_DATA_SCHEMAS)[K]> };
