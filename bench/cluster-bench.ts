/**
 * `npm run bench -- cluster`: pipeline runs and tiers tasks per second over HTTP on
 * `npm run start:cluster` (each run a `nutrition-host` object on Restate, each task a
 * `tiers-host` one: rebuilt in a service process at each event, answer and timer, each brain,
 * model or sandbox call a `ctx.run`) with 1 and with 2 service processes, against `npm start`
 * (the embedded host), in the same run, each on a fresh data dir with offline brains. Each round
 * starts a workload's runs at once (a few users, so per-user admission does not refuse them) and
 * reads each every POLL_MS until it is done: a pipeline at `output_ready`, a task at `success`.
 * No target: the ratios say what running on Restate costs; on 2 cores more workers cannot add CPU.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signToken } from '../server/auth.ts';
import { killAllServers, startServer, type ServerProcess } from '../tests/support/crash/server-process.ts';
import { clusterEnv } from '../tests/support/restate/free-port.ts';

const USERS = 5;

/** What a round starts and waits for. */
interface Workload {
  name: string;
  runs: number;
  path: string;
  example: string;
  /** The new run's id in the answer of its POST. */
  idOf: (created: any) => string;
  /** Whether a run's view says it is done; throws when it failed. */
  done: (view: any, id: string) => boolean;
}

const PIPELINES: Workload = {
  name: 'pipelines',
  runs: 40,
  path: '/pipelines',
  example: 'examples/nutrition-intake.json',
  idOf: (created) => created.pipeline_run_id,
  done: ({ state }, id) => {
    if (state === 'error') throw new Error(`Run ${id} failed.`);
    return state === 'output_ready';
  },
};
// A task's solution and tests run in the sandbox (a child process each): fewer at once.
const TASKS: Workload = {
  name: 'tiers tasks',
  runs: 12,
  path: '/tiers/tasks',
  example: 'examples/tiers-task.json',
  idOf: (created) => created.task_id,
  done: ({ status }, id) => {
    if (status !== 'working' && status !== 'success') throw new Error(`Task ${id} ended ${status}.`);
    return status === 'success';
  },
};
const RUNS = Math.max(PIPELINES.runs, TASKS.runs);
const SECRET = 'cluster-bench-secret-0123456789abcdef';
/** How often a client reads a run it waits for (each read of a cluster run is a Restate `view`). */
const POLL_MS = 100;

async function runsPerSecond(server: ServerProcess, work: Workload): Promise<number> {
  const body = await readFile(work.example, 'utf8');
  const tokens = await Promise.all(Array.from({ length: USERS }, (_, i) => signToken(`bench-${i}`, SECRET)));
  const call = (path: string, user: number, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${tokens[user]}`, 'content-type': 'application/json' },
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: work.runs }, async (_, i) => {
      const response = await call(work.path, i % USERS, { method: 'POST', body });
      if (response.status !== 201)
        throw new Error(`POST ${work.path} answered ${response.status}: ${await response.text()}`);
      const id = work.idOf(await response.json());
      while (!work.done(await (await call(`${work.path}/${id}`, i % USERS)).json(), id))
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }),
  );
  return work.runs / ((performance.now() - started) / 1000);
}

/** Runs/s of each workload on one fresh server (each after a warm-up round: modules loaded, Restate's partitions led). */
async function measure(entry: string, env: Record<string, string>): Promise<Record<string, number>> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cluster-bench-'));
  const server = await startServer({ entry, dataDir, jwtSecret: SECRET, env, timeoutMs: 120_000 });
  try {
    const rates: Record<string, number> = {};
    for (const work of [PIPELINES, TASKS]) {
      await runsPerSecond(server, work);
      rates[work.name] = await runsPerSecond(server, work);
    }
    return rates;
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
    const figures = (work: Workload) => ({
      at_once: work.runs,
      embedded_per_s: round(embedded[work.name]!),
      cluster_1_worker_per_s: round(oneWorker[work.name]!),
      cluster_2_workers_per_s: round(twoWorkers[work.name]!),
      ratio_1_worker_to_embedded: round(oneWorker[work.name]! / embedded[work.name]!),
      ratio_2_workers_to_1: round(twoWorkers[work.name]! / oneWorker[work.name]!),
    });
    return { pipelines: figures(PIPELINES), tiers_tasks: figures(TASKS) };
  } finally {
    await killAllServers();
  }
}
