import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEnvelope } from '../../actors/nutrition/envelope-factory.ts';
import type { PipelineEvent } from '../../machines/nutrition/pipeline.ts';
import { createMemoryStore } from '../../actors/runtime/memory-store.ts';
import { nutritionSystem } from '../../machines/nutrition/nutrition-system.ts';
import { RestateRunHost } from '../../server/restate/restate-run-host.ts';
import { registerDeployment, startRestateServer, type RestateServer } from '../../server/restate/restate-server.ts';
import { payload } from '../support/nutrition/nutrition-fakes.ts';
import { CountingServer } from '../support/restate/counting-server.ts';
import { freePort } from '../support/restate/free-port.ts';
import { killHard, startWorker } from '../support/restate/worker-process.ts';

/*
 * The run host on Restate: each pipeline run is a `nutrition-host` object whose state is the
 * run (its ORCHESTRATOR's snapshot, journal, timers, brain answers); each brain call is one
 * `ctx.run` of the `nutrition-brains` service. A worker killed with kill -9 while a brain works
 * loses nothing and calls no answered brain again; the pipeline's timeout is a durable delayed
 * message that fires across a worker's kill -9 and a restart of the Restate server.
 */
const WORKER = 'tests/support/restate/run-host-worker.ts';
const AGENTS = ['INTAKE', 'SCIENTIST', 'NUTRITIONIST', 'DIETITIAN', 'CHEF', 'COACH'];

let dataDir: string;
let restate: RestateServer;
let restatePorts: { ingressPort: number; adminPort: number; nodePort: number };
let counting: CountingServer;
let worker: ChildProcess | undefined;
let workerEnv: Record<string, string>;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'restate-run-host-'));
  // CHEF's first call hangs (its worker is killed meanwhile); PHYSICIAN never answers (a run waits for it).
  counting = await CountingServer.start(['CHEF'], ['PHYSICIAN']);
  restatePorts = { ingressPort: await freePort(), adminPort: await freePort(), nodePort: await freePort() };
  restate = await startRestateServer({ dataDir: join(dataDir, 'restate'), ...restatePorts });
  const port = await freePort();
  workerEnv = { PORT: String(port), COUNTER_URL: counting.url, PIPELINE_TIMEOUT_MS: '60000' };
  worker = await startWorker(WORKER, workerEnv);
  await registerDeployment(restate.adminUrl, `http://127.0.0.1:${port}`);
}, 60_000);

afterAll(async () => {
  if (worker) await killHard(worker);
  await restate?.stop();
  await counting?.close();
  await rm(dataDir, { recursive: true, force: true });
});

interface View {
  snapshot: { value: string; context: { error?: { kind?: string; details?: string } | null } } | null;
  messages: { message_id: string; from_agent: string; to_agent: string; data_type: string }[];
}

async function view(runId: string): Promise<View | null> {
  const response = await fetch(`${restate.ingressUrl}/nutrition-host/${runId}/view`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: 'null',
  }).catch(() => undefined);
  return response?.ok ? ((await response.json()) as View | null) : null;
}

/** Reads the run until `done` holds (each read a round trip to Restate; no fixed wait is asserted on). */
async function viewUntil(runId: string, done: (view: View) => boolean): Promise<View> {
  for (;;) {
    const current = await view(runId);
    if (current && done(current)) return current;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Sends the user's intake to a new run at the ingress, under the envelope's id as idempotency key. */
async function startRun(): Promise<{ runId: string; messageId: string; status: number }> {
  const runId = randomUUID();
  const envelope = makeEnvelope({
    from: 'USER',
    to: 'INTAKE',
    dataType: 'intake_data',
    payload: payload('intake_data'),
    runId,
    idSeed: [runId, 'intake'],
  });
  const response = await fetch(`${restate.ingressUrl}/nutrition-host/${runId}/deliver/send`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': envelope.message_id },
    body: JSON.stringify({ type: 'pipeline.start', envelope } satisfies PipelineEvent),
  });
  return { runId, messageId: envelope.message_id, status: response.status };
}

describe('Restate run host: a run as a virtual object', () => {
  it('completes a pipeline across a worker killed with kill -9 while a brain works, no answered brain called again', async () => {
    const { runId, status } = await startRun();
    expect(status).toBe(202);
    await counting.called('CHEF', 1); // INTAKE .. DIETITIAN answered (journaled); CHEF is working
    await killHard(worker!);
    worker = await startWorker(WORKER, workerEnv);

    const done = await viewUntil(runId, (v) => v.snapshot?.value === 'output_ready' || v.snapshot?.value === 'error');
    expect(done.snapshot?.context.error?.details ?? done.snapshot?.value).toBe('output_ready');
    // Answered before the kill: never called again. CHEF was cut off: called again, once.
    const counts = Object.fromEntries(AGENTS.map((agent) => [agent, counting.count(agent)]));
    expect(counts).toEqual({ INTAKE: 1, SCIENTIST: 1, NUTRITIONIST: 1, DIETITIAN: 1, CHEF: 2, COACH: 1 });
    // The journal holds every envelope once.
    const ids = done.messages.map((m) => m.message_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(done.messages.some((m) => m.from_agent === 'COACH')).toBe(true);
  }, 120_000);

  it('takes the same intake twice under its id once (idempotency key at the ingress, duplicate ids dropped)', async () => {
    const { runId, messageId } = await startRun();
    const first = await viewUntil(runId, (v) => v.snapshot?.value === 'output_ready');
    const before = AGENTS.map((agent) => counting.count(agent));
    const again = await fetch(`${restate.ingressUrl}/nutrition-host/${runId}/deliver`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': messageId },
      body: JSON.stringify({ type: 'pipeline.start' }),
    });
    expect(again.ok).toBe(true);
    const after = await view(runId);
    expect(after?.messages.length).toBe(first.messages.length);
    expect(AGENTS.map((agent) => counting.count(agent))).toEqual(before);
  }, 120_000);

  it("fires the pipeline's timeout, a durable delayed message, across a worker's kill -9 and a Restate restart", async () => {
    // A worker whose SCIENTIST never answers, and a pipeline timeout of 3 s.
    const hanging = await CountingServer.start([], ['SCIENTIST']);
    try {
      await killHard(worker!);
      const env = { ...workerEnv, COUNTER_URL: hanging.url, PIPELINE_TIMEOUT_MS: '3000' };
      worker = await startWorker(WORKER, env);
      const { runId } = await startRun();
      await hanging.called('SCIENTIST', 1); // the run is saved, its timeout armed as a delayed message
      await killHard(worker);
      worker = undefined;
      await restate.stop('SIGKILL');
      restate = await startRestateServer({ dataDir: join(dataDir, 'restate'), ...restatePorts });
      worker = await startWorker(WORKER, env);

      const ended = await viewUntil(runId, (v) => v.snapshot?.value === 'error');
      expect(ended.snapshot?.context.error?.details).toMatch(/did not finish within 3000 ms/);
      expect(hanging.count('COACH')).toBe(0);
    } finally {
      // The next tests get a worker whose brains answer.
      if (worker) await killHard(worker);
      worker = await startWorker(WORKER, workerEnv);
      await hanging.close();
    }
  }, 120_000);

  it('serves a run behind the run-host interface: start, send, journaled, commit, until, messages, owner', async () => {
    const host = new RestateRunHost({
      ingressUrl: restate.ingressUrl,
      system: nutritionSystem({ brains: {} as never }),
      store: createMemoryStore(),
    });
    const run = host.start({ owner: 'ada' });
    const envelope = makeEnvelope({
      from: 'USER',
      to: 'INTAKE',
      dataType: 'intake_data',
      payload: payload('intake_data'),
      runId: run.partition,
      idSeed: [run.partition, 'intake'],
    });
    const states: string[] = [];
    const stop = run.watch((event) => void (event.type === 'state' && states.push(event.data.to)));
    run.send({ type: 'pipeline.start', envelope } satisfies PipelineEvent);
    await run.journaled(envelope.message_id);
    await host.commit(run);
    expect((await host.messagesOf(run.partition))[0]).toEqual(envelope);

    const done = await run.until((snapshot) => snapshot.value === 'output_ready');
    stop();
    expect(done.value).toBe('output_ready');
    expect(states.at(-1)).toBe('output_ready');
    expect(await host.ownerOf(run.partition)).toBe('ada');
    expect((await host.snapshotOf(run.partition))?.value).toBe('output_ready');
    const messages = (await host.messagesOf(run.partition)) as { message_id: string; from_agent: string }[];
    expect(messages.some((m) => m.from_agent === 'COACH')).toBe(true);
    expect(new Set(messages.map((m) => m.message_id)).size).toBe(messages.length);
    await host.close();
  }, 120_000);
});
