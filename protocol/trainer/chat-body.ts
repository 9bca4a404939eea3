import { z } from 'zod';

/**
 * The body of `POST /agent/chat` and `POST /agent/stream` (spec 001 §10.2). `message` is required
 * and must not be blank (§12.7); `model` is checked against the model registry by the server.
 */
export const ChatBodySchema = z.strictObject({
  message: z.string().regex(/\S/, 'message must not be blank').max(20_000),
  sessionId: z.string().min(1).max(200).optional(),
  /** The workout the app shows, injected as `current_workout_session` knowledge (§3.1). */
  currentWorkout: z.record(z.string(), z.unknown()).nullable().optional(),
  model: z.string().min(1).max(100).optional(),
});
export type ChatBody = z.infer<typeof ChatBodySchema>;

/** The body of `POST /agent/sessions`: optional metadata kept on the session (§7.1). */
export const CreateSessionBodySchema = z.strictObject({
  metadata: z.record(z.string(), z.unknown()).optional(),
});

/** `GET /agent/sessions?limit=` (default 10, §10.2). */
export const SessionListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(10),
});
