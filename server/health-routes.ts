import { Hono } from 'hono';

/** `GET /health`: liveness, with no auth. */
export function healthRoutes(startedAt: Date) {
  return new Hono().get('/', (c) =>
    c.json({ status: 'ok', uptime_s: Math.round((Date.now() - startedAt.getTime()) / 1000) }),
  );
}
