import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { bearerAuth, userIdOf } from './auth.ts';
import { errorResponse, handleError, handleNotFound } from './error-handler.ts';
import { healthRoutes } from './health-routes.ts';

interface AppOptions {
  jwtSecret: string;
  /** Largest accepted request body; default 1 MiB. */
  maxBodyBytes?: number;
  /** Route groups that need no token (the visualizer), by mount path. */
  publicRoutes?: Record<string, Hono<any>>;
  /** Route groups behind bearer auth, by mount path. */
  protectedRoutes?: Record<string, Hono<any>>;
}

const MIB = 1024 * 1024;

/**
 * Builds the HTTP app: the one error shape for every error, a body limit, `GET /health`, and
 * bearer-JWT auth in front of every other route.
 */
export function createApp(options: AppOptions) {
  const maxBodyBytes = options.maxBodyBytes ?? MIB;
  const app = new Hono();
  app.onError(handleError);
  app.notFound(handleNotFound);
  app.use(
    '*',
    bodyLimit({
      maxSize: maxBodyBytes,
      onError: (c) =>
        errorResponse(c, 413, { code: 'payload_too_large', message: `The body is larger than ${maxBodyBytes} bytes.` }),
    }),
  );
  app.route('/health', healthRoutes(new Date()));
  for (const [path, routes] of Object.entries(options.publicRoutes ?? {})) app.route(path, routes);

  const auth = bearerAuth(options.jwtSecret);
  app.get('/me', auth, (c) => c.json({ user_id: userIdOf(c) }));
  for (const [path, routes] of Object.entries(options.protectedRoutes ?? {})) {
    app.use(path, auth);
    app.use(`${path}/*`, auth);
    app.route(path, routes);
  }
  return app;
}
