import './with-resolvers.ts';
import { once } from 'node:events';
import { createServer, type Http2Server } from 'node:http2';
import { createEndpointHandler } from '@restatedev/restate-sdk/node';

/** Restate services (objects, services) as an endpoint serves them. */
export type RestateServices = readonly Parameters<typeof createEndpointHandler>[0]['services'][number][];

/**
 * Serves Restate services over HTTP/2 (the bidirectional protocol Restate speaks to a
 * deployment) on `port` of localhost; resolves once listening. Processes of a `node:cluster`
 * calling it with one port share it: Restate knows one endpoint, the kernel spreads its
 * connections over the workers.
 *
 * @example
 * const server = await serveRestateEndpoint(nutritionRestateServices(models), 9080);
 */
export async function serveRestateEndpoint(services: RestateServices, port: number): Promise<Http2Server> {
  const server = createServer(createEndpointHandler({ services: [...services] }));
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  return server;
}
