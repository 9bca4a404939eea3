import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerDeployment, startRestateServer, type RestateServer } from '../../server/restate/restate-server.ts';
import { CountingServer } from '../support/restate/counting-server.ts';
import { freePort } from '../support/restate/free-port.ts';
import { killHard, startWorker } from '../support/restate/worker-process.ts';

/*
 * Brain calls as journaled side effects on a real Restate server (from npm): a worker killed
 * with kill -9 in the middle of a run is replaced, Restate replays the run's invocation on the
 * new worker, and no brain that had answered is called again; a call repeated at the ingress
 * under the same idempotency key gets the first answer without any brain call.
 */
const WORKER = 'tests/support/restate/counting-worker.ts';

let dataDir: string;
let restate: RestateServer;
let counting: CountingServer;
let worker: ChildProcess | undefined;
let workerEnv: Record<string, string>;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'restate-replay-'));
  counting = await CountingServer.start(['B']);
  restate = await startRestateServer({
    dataDir: join(dataDir, 'restate'),
    ingressPort: await freePort(),
    adminPort: await freePort(),
    nodePort: await freePort(),
  });
  const port = await freePort();
  workerEnv = { PORT: String(port), COUNTER_URL: counting.url };
  worker = await startWorker(WORKER, workerEnv);
  await registerDeployment(restate.adminUrl, `http://127.0.0.1:${port}`);
}, 60_000);

afterAll(async () => {
  if (worker) await killHard(worker);
  await restate?.stop();
  await counting?.close();
  await rm(dataDir, { recursive: true, force: true });
}, 60_000);

async function ingress(path: string, body: unknown, idempotencyKey: string): Promise<Response> {
  return fetch(`${restate.ingressUrl}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    body: JSON.stringify(body),
  });
}

describe('Restate run host: journaled brain calls', () => {
  it('replays a run after its worker is killed with kill -9 without calling an answered brain again', async () => {
    const sent = await ingress('counted-chain/run-1/run/send', { steps: ['A', 'B', 'C'] }, 'intake-1');
    expect(sent.status).toBe(202);
    const { invocationId } = (await sent.json()) as { invocationId: string };
    await counting.called('B', 1); // A answered (journaled); B is working
    await killHard(worker!);
    worker = await startWorker(WORKER, workerEnv);

    const attached = await fetch(`${restate.ingressUrl}/restate/invocation/${invocationId}/attach`);
    expect(await attached.json()).toEqual(['A#1', 'B#2', 'C#1']);
    // A answered before the kill: replayed from the journal. B was cut off: called again, once.
    expect([counting.count('A'), counting.count('B'), counting.count('C')]).toEqual([1, 2, 1]);

    // The same request again under its idempotency key: the first answer, no brain called.
    const again = await ingress('counted-chain/run-1/run', { steps: ['A', 'B', 'C'] }, 'intake-1');
    expect(await again.json()).toEqual(['A#1', 'B#2', 'C#1']);
    expect([counting.count('A'), counting.count('B'), counting.count('C')]).toEqual([1, 2, 1]);
  }, 120_000);

  it('makes one brain call per envelope id however often the call is sent (idempotency key at ingress)', async () => {
    const call = { agent: 'C', id: 'envelope-7', input: { n: 7 } };
    const before = counting.count('C');
    const answers = await Promise.all(
      [1, 2, 3].map(async () => (await ingress('counted-run/run-2/call', call, call.id)).json()),
    );
    expect(new Set(answers).size).toBe(1);
    expect(counting.count('C')).toBe(before + 1);
    expect(answers[0]).toBe(`C#${before + 1}`);
  }, 60_000);

  it('refuses a call to an agent without a brain with a terminal error naming the agents', async () => {
    const response = await ingress('counted-run/run-3/call', { agent: 'Z', id: 'e1', input: null }, 'e1');
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(await response.text()).toContain('A, B, C');
  }, 60_000);
});
