import type { RuntimeOverrides } from '../../../server/runtime.ts';
import { startRuntime } from '../runtime-harness.ts';
import { withToken, type HttpHost } from './http-host.ts';

/**
 * The embedded host: the whole runtime in this process (`startRuntime`) on a temporary DATA_DIR,
 * called through its app without a socket.
 *
 * @example
 * const host = await startEmbeddedHost();
 * expect((await host.call('ada', 'GET', '/pipelines')).status).toBe(200);
 * await host.stop();
 */
export async function startEmbeddedHost(overrides: RuntimeOverrides = {}): Promise<HttpHost> {
  const rt = await startRuntime(overrides);
  return {
    kind: 'embedded',
    call: rt.call,
    fetch: async (user, path, init) => rt.runtime.app.request(path, withToken(await rt.token(user), init)),
    stop: () => rt.stop(),
  };
}
