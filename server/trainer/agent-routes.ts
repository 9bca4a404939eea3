import { Hono, type Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { z } from 'zod';
import type { EventStore } from '../../actors/trainer/events/event-store.ts';
import { NotFoundError, ValidationError, toErrorIssues } from '../../protocol/runtime/runtime-error.ts';
import { ChatBodySchema, CreateSessionBodySchema, SessionListQuerySchema } from '../../protocol/trainer/chat-body.ts';
import type { SseEvent } from '../../protocol/trainer/sse-event.ts';
import { userIdOf } from '../auth.ts';
import { errorResponse } from '../error-handler.ts';
import { readJsonBody } from '../json-body.ts';
import type { TrainerService } from './trainer-service.ts';

/** How many tool events `GET /agent/sessions/:id` shows as recent actions. */
const RECENT_ACTIONS = 20;

/** The HTTP status of a turn that ended on a fatal error: the model's failure is a gateway error. */
function failedTurnStatus(code: string | undefined): 500 | 502 | 503 | 504 {
  if (code === 'model_rate_limited') return 503;
  if (code === 'model_timeout') return 504;
  return code?.startsWith('model_') ? 502 : 500;
}

function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = toErrorIssues(parsed.error.issues);
  throw new ValidationError(
    `Invalid ${what}: ${issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ')}`,
    issues,
  );
}

/** An optional JSON body: none (or an empty one) is `{}`. */
async function optionalJsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  const text = await c.req.text();
  if (text.trim() === '') return parseOrThrow(schema, {}, 'body');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ValidationError(
      'The body must be a JSON document.',
      [{ path: '', message: 'Malformed JSON' }],
      'invalid_json',
    );
  }
  return parseOrThrow(schema, body, 'body');
}

/**
 * The personal-trainer routes of spec 001 §10.2, all behind bearer auth. A session of another
 * user answers 404 exactly like a missing one (§7.7).
 */
export function agentRoutes(trainer: TrainerService, events: EventStore) {
  const ownSession = async (c: Context) => {
    const sessionId = c.req.param('id') ?? '';
    const session = await events.getSessionSummary(userIdOf(c), sessionId);
    if (session === undefined) throw new NotFoundError(`Session ${sessionId}`);
    return session;
  };

  return new Hono()
    .post('/chat', async (c) => {
      const body = await readJsonBody(c, ChatBodySchema);
      const result = await trainer.chat(userIdOf(c), body);
      c.header('X-Session-Id', result.sessionId);
      if (result.status === 'completed') return c.json(result);
      // §3.2: a failed model call is fatal and reaches the caller, after it was logged in the session.
      return errorResponse(c, failedTurnStatus(result.errorCode), {
        code: result.errorCode ?? 'turn_failed',
        message: `${result.error ?? 'The turn failed.'} Session ${result.sessionId} ended in error; send another message to continue it.`,
      });
    })
    .post('/stream', async (c) => {
      const body = await readJsonBody(c, ChatBodySchema);
      // Bad input and unknown sessions fail as plain HTTP errors, before the stream opens.
      const chat = await trainer.prepare(userIdOf(c), body);
      c.header('X-Session-Id', chat.sessionId);
      return streamSSE(c, async (stream) => {
        let writes: Promise<void> = Promise.resolve();
        // §8.4: once the client is gone, writes are skipped silently and the loop runs to its end.
        // Each event goes out once the session's events recorded before it are on disk (an error
        // at once: it may be that a write failed).
        const send = (event: SseEvent) => {
          if (stream.aborted) return;
          const durable = event.type === 'error' ? undefined : events.durable(chat.sessionId);
          writes = writes
            .then(() => durable)
            .then(() => (stream.aborted ? undefined : stream.writeSSE({ data: JSON.stringify(event) })))
            .catch(() => undefined);
        };
        try {
          await chat.run(send);
        } catch (error) {
          send({ type: 'error', message: error instanceof Error ? error.message : String(error) });
        }
        await writes;
      });
    })
    .get('/sessions', async (c) => {
      const { limit } = parseOrThrow(SessionListQuerySchema, c.req.query(), 'query');
      return c.json({ sessions: await events.listSessionSummaries(userIdOf(c), limit) });
    })
    .post('/sessions', async (c) => {
      const { metadata } = await optionalJsonBody(c, CreateSessionBodySchema);
      return c.json({ session: await events.createSession(userIdOf(c), metadata ?? {}) }, 201);
    })
    .get('/sessions/:id', async (c) => {
      const session = await ownSession(c);
      const recentActions = await events.recentToolEvents(session.id, RECENT_ACTIONS);
      return c.json({ session, recentActions });
    })
    .get('/sessions/:id/events', async (c) => {
      const session = await ownSession(c);
      return c.json({ events: await events.listEvents(session.id) });
    })
    .get('/sessions/:id/artifacts/:artifactId', async (c) => {
      const session = await ownSession(c);
      const artifactId = c.req.param('artifactId');
      const artifact = await events.getArtifact(userIdOf(c), session.id, artifactId);
      if (artifact === undefined) throw new NotFoundError(`Artifact ${artifactId}`);
      return c.json({ artifact });
    });
}
