import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory, type Client } from '@a2a-js/sdk/client';
import type { HttpHost } from './http-host.ts';

/**
 * The A2A SDK's client of a host's `/a2a/<system>/` (from its agent card), sending `user`'s
 * bearer token, over the host's real socket.
 *
 * @example
 * const client = await a2aClient(host, 'ada', 'nutrition');
 * const task = await client.sendMessage(send(userMessage({ data: intake })));
 */
export async function a2aClient(host: HttpHost, user: string, system: string): Promise<Client> {
  const token = await host.token(user);
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
    }),
  );
  return factory.createFromUrl(`${host.url}/a2a/${system}/`);
}
