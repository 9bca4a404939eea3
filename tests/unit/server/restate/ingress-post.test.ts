import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_INGRESS_RETRY, postToIngress } from '../../../../server/restate/ingress-post.ts';

/*
 * A post to the Restate ingress against a local server standing in for it: tried again under the
 * same key while it does not answer, and cut off at once when its caller aborts (closing while
 * Restate is stopping: a shared read waits on workers that are gone).
 */
let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function ingress(answer: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
  server = createServer(answer);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/tiers-host/t-1/view`;
}

const waits: number[] = [];
const retry = { ...DEFAULT_INGRESS_RETRY, attempts: 4, sleep: async (ms: number) => void waits.push(ms) };

describe('postToIngress', () => {
  it('tries a 503 again under the same idempotency key, then takes the answer', async () => {
    const keys: (string | undefined)[] = [];
    const url = await ingress((request, response) => {
      keys.push(request.headers['idempotency-key'] as string | undefined);
      if (keys.length < 3) response.writeHead(503).end('not now');
      else response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    waits.length = 0;
    const response = await postToIngress(url, { read: 'view' }, 'key-1', retry);
    expect(await response.json()).toEqual({ ok: true });
    expect(keys).toEqual(['key-1', 'key-1', 'key-1']);
    expect(waits).toHaveLength(2);
  });

  it('cuts a try under way off at once when its caller aborts, with the caller’s reason', async () => {
    const url = await ingress(() => undefined); // never answers
    const controller = new AbortController();
    const started = performance.now();
    const post = postToIngress(url, null, undefined, { ...retry, timeoutMs: 60_000 }, controller.signal);
    setTimeout(() => controller.abort(new Error('closing')), 50);
    await expect(post).rejects.toThrow('closing');
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('makes no more tries once aborted between them', async () => {
    let tries = 0;
    const url = await ingress((_request, response) => {
      tries++;
      response.writeHead(503).end('not now');
    });
    const controller = new AbortController();
    const aborting = {
      ...retry,
      sleep: async () => {
        controller.abort(new Error('closing'));
      },
    };
    await expect(postToIngress(url, null, undefined, aborting, controller.signal)).rejects.toThrow('closing');
    expect(tries).toBe(1);
  });

  it('refuses at once what Restate refuses (4xx), naming the status', async () => {
    const url = await ingress((_request, response) => response.writeHead(404).end('no such handler'));
    await expect(postToIngress(url, null, undefined, retry)).rejects.toMatchObject({
      code: 'restate_refused',
      status: 502,
    });
  });
});
