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
