import { z } from 'zod';
import { ArtifactSchema } from './artifact.ts';

/** The `type` values that are not tool names (spec 001 §8.2); no tool may be named like them. */
export const RESERVED_SSE_TYPES = ['status', 'knowledge', 'done', 'error'] as const;

/** A tool name in the `type` field of `tool_start` and `tool_result` events. */
const SseToolNameSchema = z
  .string()
  .min(1)
  .refine((name) => !(RESERVED_SSE_TYPES as readonly string[]).includes(name), {
    message: `a tool name must not be one of ${RESERVED_SSE_TYPES.join(', ')}`,
  });

/** Progress of a tool (spec 001 §8.3 `status`). */
const StatusSseEventSchema = z.strictObject({
  type: z.literal('status'),
  data: z.strictObject({
    message: z.string(),
    tool: z.string().min(1),
    phase: z.enum(['start', 'done', 'error']),
  }),
});

/** A tool starts; `type` is the tool name (spec 001 §8.3 `tool_start`). */
const ToolStartSseEventSchema = z.strictObject({
  type: SseToolNameSchema,
  data: z.strictObject({
    status: z.literal('running'),
    args: z.record(z.string(), z.unknown()),
  }),
});

/** What a tool returns: always `success`, then whatever the tool reports. */
const ToolResultPayloadSchema = z.looseObject({ success: z.boolean() });

/**
 * A tool finished; `type` is the tool name (spec 001 §8.3 `tool_result`). `artifact` and
 * `artifact_id` come with a `message_notify_user` that delivers an artifact.
 */
export const ToolResultSseEventSchema = z.strictObject({
  type: SseToolNameSchema,
  data: ToolResultPayloadSchema,
  formatted: z.string(),
  status: z.enum(['done', 'failed']),
  artifact: ArtifactSchema.optional(),
  artifact_id: z.string().optional(),
});

/** A data source was loaded into the context (spec 001 §8.3 `knowledge`). */
const KnowledgeSseEventSchema = z.strictObject({
  type: z.literal('knowledge'),
  data: z.strictObject({
    source: z.string().min(1),
    displayName: z.string().min(1),
    status: z.literal('done'),
  }),
});

/** The run is over (spec 001 §8.3 `done`). */
const DoneSseEventSchema = z.strictObject({
  type: z.literal('done'),
  sessionId: z.string().min(1),
});

/** An unrecoverable error (spec 001 §8.3 `error`). */
const ErrorSseEventSchema = z.strictObject({
  type: z.literal('error'),
  message: z.string(),
});

/** Any event of the `/agent/stream` response, one per `data:` line (spec 001 §8). */
export const SseEventSchema = z.union([
  StatusSseEventSchema,
  KnowledgeSseEventSchema,
  DoneSseEventSchema,
  ErrorSseEventSchema,
  ToolStartSseEventSchema,
  ToolResultSseEventSchema,
]);
export type SseEvent = z.infer<typeof SseEventSchema>;
