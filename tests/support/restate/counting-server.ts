import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The test side of counting-worker.ts: counts the calls of each fake brain and answers
 * `<agent>#<n>` (its n-th call). An agent in `holdFirst` gets no answer to its first call (its
 * worker is to be killed meanwhile); `called(agent, n)` resolves once it was called n times.
 */
export class CountingServer {
  readonly counts = new Map<string, number>();
  private readonly waiters: { agent: string; n: number; resolve: () => void }[] = [];
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  /** `holdAll`: agents that get no answer at all (a brain that hangs). */
  static async start(holdFirst: readonly string[] = [], holdAll: readonly string[] = []): Promise<CountingServer> {
    let counting!: CountingServer;
    const server = createServer((request, response) => {
      const agent = (request.url ?? '/').slice(1);
      const n = (counting.counts.get(agent) ?? 0) + 1;
      counting.counts.set(agent, n);
      for (const waiter of counting.waiters.filter((w) => w.agent === agent && w.n <= n)) waiter.resolve();
      request.resume();
      if (holdFirst.includes(agent) && n === 1) return; // never answered: its caller dies first
      if (holdAll.includes(agent)) return;
      response.end(`${agent}#${n}`);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    counting = new CountingServer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return counting;
  }

  called(agent: string, n: number): Promise<void> {
    if ((this.counts.get(agent) ?? 0) >= n) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ agent, n, resolve }));
  }

  count(agent: string): number {
    return this.counts.get(agent) ?? 0;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
