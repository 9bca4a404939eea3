/** `npm start`: serves the runtime on embedded defaults (lowdb in ./data, offline brains, no key). */
import { serve } from '@hono/node-server';
import { loadConfig } from './config.ts';
import { openRuntime } from './runtime.ts';
import { RuntimeError } from '../protocol/runtime/runtime-error.ts';

try {
  const config = await loadConfig();
  const runtime = await openRuntime(config);
  const server = serve({ fetch: runtime.app.fetch, port: config.port }, (info) => {
    const url = `http://localhost:${info.port}`;
    console.log(`Agent runtime listening on ${url} (data in ${config.dataDir})`);
    console.log(
      `Brains: ${runtime.models.describe()}${runtime.models.configured.length ? '' : ' (no ANTHROPIC_API_KEY or OPENAI_API_KEY)'}.`,
    );
    for (const { title, configKeys } of runtime.modules) {
      const keys = (configKeys ?? []).map((key) => key.name).join(', ');
      console.log(`System: ${title}${keys ? ` (reads ${keys})` : ''}`);
    }
    console.log(`Health: curl ${url}/health`);
    console.log(`Token:  npm run token -- <userId>   then send "Authorization: Bearer <token>"`);
  });
  const shutdown = () => {
    server.close();
    runtime.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
} catch (error) {
  // A corrupt data file, a bad PORT: say what and where, then stop without touching anything.
  console.error(error instanceof RuntimeError || error instanceof Error ? `Cannot start: ${error.message}` : error);
  process.exit(1);
}
