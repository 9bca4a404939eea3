import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { RuntimeOverrides } from '../../../server/runtime.ts';
import { startRuntime } from '../runtime-harness.ts';
import { afterAll, beforeAll } from 'vitest';
import type { HttpHost } from './http-host.ts';

/**
 * The embedded host: the whole runtime in this process (`startRuntime`) on a temporary DATA_DIR,
 * called through its app without a socket, and also listening on 127.0.0.1 (a free port) for
 * clients that need a URL.
 *
 * @example
 * const host = await startEmbeddedHost();
 * expect((await host.call('ada', 'GET', '/pipelines')).status).toBe(200);
 * await host.stop();
 */
export async function startEmbeddedHost(overrides: RuntimeOverrides = {}): Promise<HttpHost> {
  const rt = await startRuntime(overrides);
  let server: ServerType | undefined;
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: rt.runtime.app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve(info.port),
    );
  });
  return {
    kind: 'embedded',
    url: `http://127.0.0.1:${port}`,
    token: rt.token,
    call: rt.call,
    fetch: rt.fetch,
    async stop() {
      await new Promise<void>((resolve) => server!.close(() => resolve()));
      await rt.stop();
    },
  };
}

/**
 * One embedded host for the test file that calls this (at its top level): started before its
 * tests, stopped after them. Answers the host.
 *
 * @example
 * const embedded = embeddedForFile();
 * describePipelineHttp(embedded);
 */
export function embeddedForFile(): () => HttpHost {
  let host: HttpHost | undefined;
  beforeAll(async () => {
    host = await startEmbeddedHost();
  });
  afterAll(async () => {
    await host?.stop();
  });
  return () => {
    if (!host) throw new Error('The embedded host did not start (see beforeAll).');
    return host;
  };
}
