import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunView } from '../../../server/restate/remote-run.ts';

/** One request the fake ingress took: the object key, the handler, its idempotency key and body. */
export interface IngressRequest {
  key: string;
  handler: string;
  idempotencyKey: string | undefined;
  body: unknown;
}

/**
 * A stand-in for the Restate ingress of `<system>-host` objects, on localhost, speaking its wire
 * format (POST `/<service>/<key>/<handler>`, JSON in and out): `view` answers the view set for the
 * key (`null` when none); `deliver` answers with the next status of `statuses` (200 once they are
 * spent), and on a 200 sets the key's view to what `after` makes of the event.
 */
export class FakeIngress {
  readonly requests: IngressRequest[] = [];
  readonly views = new Map<string, RunView>();
  statuses: number[] = [];
  after: (key: string, event: unknown) => RunView | undefined = () => undefined;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeIngress> {
    let fake!: FakeIngress;
    const server = createServer((request, response) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => {
        const [, , key = '', handler = ''] = (request.url ?? '').split('/').map(decodeURIComponent);
        const body: unknown = text ? JSON.parse(text) : null;
        const idempotencyKey = request.headers['idempotency-key'] as string | undefined;
        fake.requests.push({ key, handler, idempotencyKey, body });
        if (handler === 'view') return void response.end(JSON.stringify(fake.views.get(key) ?? null));
        const status = fake.statuses.shift() ?? 200;
        if (status === 200) {
          const view = fake.after(key, body);
          if (view) fake.views.set(key, view);
        }
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(status === 200 ? { snapshot: null, routed: [] } : { message: `status ${status}` }));
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    fake = new FakeIngress(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return fake;
  }

  /** The requests to `handler`. */
  to(handler: string): IngressRequest[] {
    return this.requests.filter((request) => request.handler === handler);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
