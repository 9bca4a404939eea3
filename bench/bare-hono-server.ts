/**
 * The baseline of the HTTP benches: a bare Hono JSON route served as `npm start` serves the
 * runtime (`@hono/node-server`, its own process, `PORT`), printing the same "listening on" line.
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const app = new Hono()
  .get('/health', (c) => c.json({ status: 'ok' }))
  .post('/echo', async (c) => c.json({ echo: (await c.req.json()) as unknown }, 201));
const server = serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 0) }, (info) =>
  console.log(`Bare Hono listening on http://localhost:${info.port}`),
);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
