import { once } from 'node:events';
import { createServer } from 'node:net';

/** A TCP port of localhost free right now (for a child process that cannot listen on 0 and tell). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The environment of an `npm run start:cluster` group on ports free now: `workers` service
 * processes, Restate's ingress, admin, node and endpoint ports, no install analytics.
 *
 * @example
 * startServer({ entry: 'server/cluster-main.ts', dataDir, jwtSecret, env: await clusterEnv(2) });
 */
export async function clusterEnv(workers = 2): Promise<Record<string, string>> {
  return {
    SCARF_ANALYTICS: 'false',
    RESTATE_WORKERS: String(workers),
    RESTATE_INGRESS_PORT: String(await freePort()),
    RESTATE_ADMIN_PORT: String(await freePort()),
    RESTATE_NODE_PORT: String(await freePort()),
    RESTATE_ENDPOINT_PORT: String(await freePort()),
  };
}
