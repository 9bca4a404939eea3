/**
 * `npm run bench -- cluster`: pipeline runs per second over HTTP on `npm run start:cluster` (each
 * run a `nutrition-host` object on Restate: its statecharts restored in a service process at
 * each event, brain answer and timer, each brain call a `ctx.run`) with 1 and with 2 service
 * processes, against `npm start` (the embedded host), in the same run, each on a fresh data dir
 * with offline brains. Each round starts RUNS pipelines at once (a few users, so per-user
 * admission does not refuse them) and reads each every POLL_MS until it reached `output_ready`.
 * No target: the ratios say what running on Restate costs; on 2 cores more workers cannot add CPU.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signToken } from '../server/auth.ts';
import { killAllServers, startServer, type ServerProcess } from '../tests/support/crash/server-process.ts';
import { clusterEnv } from '../tests/support/restate/free-port.ts';

const RUNS = 40;
const USERS = 5;
const SECRET = 'cluster-bench-secret-0123456789abcdef';
/** How often a client reads a run it waits for (each read of a cluster run is a Restate `view`). */
const POLL_MS = 100;

async function runsPerSecond(server: ServerProcess): Promise<number> {
  const intake = await readFile('examples/nutrition-intake.json', 'utf8');
  const tokens = await Promise.all(Array.from({ length: USERS }, (_, i) => signToken(`bench-${i}`, SECRET)));
  const call = (path: string, user: number, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${tokens[user]}`, 'content-type': 'application/json' },
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: RUNS }, async (_, i) => {
      const response = await call('/pipelines', i % USERS, { method: 'POST', body: intake });
      if (response.status !== 201)
        throw new Error(`POST /pipelines answered ${response.status}: ${await response.text()}`);
      const { pipeline_run_id: id } = (await response.json()) as { pipeline_run_id: string };
      for (;;) {
        const { state } = (await (await call(`/pipelines/${id}`, i % USERS)).json()) as { state: string };
        if (state === 'output_ready') return;
        if (state === 'error') throw new Error(`Run ${id} failed.`);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    }),
  );
  return RUNS / ((performance.now() - started) / 1000);
}

async function measure(entry: string, env: Record<string, string>): Promise<number> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cluster-bench-'));
  const server = await startServer({ entry, dataDir, jwtSecret: SECRET, env, timeoutMs: 120_000 });
  try {
    await runsPerSecond(server); // warm-up: modules loaded, Restate's partitions led
    return await runsPerSecond(server);
  } finally {
    await server.stop().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function runClusterBench() {
  const limits = { MAX_WORKING_RUNS: String(RUNS), MAX_WORKING_RUNS_PER_USER: String(RUNS) };
  try {
    const embedded = await measure('server/main.ts', limits);
    const oneWorker = await measure('server/cluster-main.ts', { ...limits, ...(await clusterEnv(1)) });
    const twoWorkers = await measure('server/cluster-main.ts', { ...limits, ...(await clusterEnv(2)) });
    const round = (n: number) => Math.round(n * 100) / 100;
    return {
      runs: RUNS,
      embedded_runs_per_s: round(embedded),
      cluster_1_worker_runs_per_s: round(oneWorker),
      cluster_2_workers_runs_per_s: round(twoWorkers),
      ratio_1_worker_to_embedded: round(oneWorker / embedded),
      ratio_2_workers_to_1: round(twoWorkers / oneWorker),
    };
  } finally {
    await killAllServers();
  }
}
