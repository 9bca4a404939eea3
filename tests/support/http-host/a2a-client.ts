import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory, type Client } from '@a2a-js/sdk/client';

/**
 * The A2A SDK's client of `<url>/a2a/<system>/` (from its agent card) on a real socket, sending
 * `token` as the bearer on every request.
 *
 * @example
 * const client = await a2aClient(host.url, await host.token('ada'), 'nutrition');
 * const task = await client.sendMessage(send(userMessage({ data: intake })));
 */
export async function a2aClient(url: string, token: string, system: string): Promise<Client> {
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
  return factory.createFromUrl(`${url}/a2a/${system}/`);
}
