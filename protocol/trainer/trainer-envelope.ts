import { z } from 'zod';
import { DataSourceNameSchema } from './data-source.ts';

/** The addresses of the trainer system: the agent loop, the initializer, and the user outside. */
const TrainerAgentSchema = z.enum(['TRAINER', 'INITIALIZER', 'USER']);

const JsonObjectSchema = z.record(z.string(), z.unknown());

/** USER -> TRAINER: one chat turn (spec 001 §3.1 `runAgentLoop` arguments, §10.2 body). */
export const ChatRequestSchema = z.strictObject({
  user_id: z.string().min(1),
  message: z.string().regex(/\S/, 'message must not be blank'),
  /** The client's workout state, injected as `current_workout_session` knowledge. */
  current_workout: z.unknown().optional(),
  model: z.string().min(1),
});
export type ChatRequest = z.infer<typeof ChatRequestSchema>;

/** TRAINER -> INITIALIZER: choose and load the data sources this message needs (§5.2). */
const ContextRequestSchema = z.strictObject({
  user_id: z.string().min(1),
  message: z.string(),
});

/** INITIALIZER -> TRAINER: the sources appended as knowledge, for the `knowledge` SSE events (§8.3). */
export const ContextLoadedSchema = z.strictObject({
  sources: z.array(z.strictObject({ source: DataSourceNameSchema, displayName: z.string().min(1) })),
  reasoning: z.string(),
});
export type ContextLoaded = z.infer<typeof ContextLoadedSchema>;

/** Why a turn's loop stopped (spec 001 §3.2). */
export const StopReasonSchema = z.enum([
  'idle',
  'awaiting_user',
  'max_iterations',
  'no_tool_call',
  'model_error',
  'internal_error',
]);
export type StopReason = z.infer<typeof StopReasonSchema>;

/** One iteration's tool call and its result (spec 001 §3.1 `actions`). */
export const LoopActionSchema = z.strictObject({
  tool: z.string().min(1),
  args: JsonObjectSchema,
  result: z.looseObject({ success: z.boolean() }),
});
export type LoopAction = z.infer<typeof LoopActionSchema>;

/** TRAINER -> USER: how the turn ended (spec 001 §3.1 `AgentResult`, with the stop reason). */
export const TurnResultSchema = z.strictObject({
  status: z.enum(['completed', 'error']),
  stop_reason: StopReasonSchema,
  iterations: z.int().min(0),
  actions: z.array(LoopActionSchema),
  /** What went wrong, for `error` and the logged errors of `max_iterations` / `no_tool_call`. */
  error: z.string().optional(),
  /** The code of the error that ended the turn (`model_rate_limited`, `model_timeout`, ...). */
  error_code: z.string().optional(),
});
export type TurnResult = z.infer<typeof TurnResultSchema>;

function envelopeFor<D extends string, P extends z.ZodType>(dataType: D, payload: P) {
  return z.strictObject({
    message_id: z.string().min(1),
    from_agent: TrainerAgentSchema,
    to_agent: TrainerAgentSchema,
    data_type: z.literal(dataType),
    /** The journal partition: every envelope of a turn belongs to its session. */
    session_id: z.string().min(1),
    payload,
  });
}

/** An envelope of the trainer system, its payload checked by its `data_type`. */
export const TrainerEnvelopeSchema = z.discriminatedUnion('data_type', [
  envelopeFor('chat_request', ChatRequestSchema),
  envelopeFor('context_request', ContextRequestSchema),
  envelopeFor('context_loaded', ContextLoadedSchema),
  envelopeFor('turn_result', TurnResultSchema),
]);
export type TrainerEnvelope = z.infer<typeof TrainerEnvelopeSchema>;
export type TrainerEnvelopeOf<D extends TrainerEnvelope['data_type']> = Extract<TrainerEnvelope, { data_type: D }>;
