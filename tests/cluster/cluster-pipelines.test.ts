import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../../server/auth.ts';
import { killAllServers, startServer, type ServerProcess } from '../support/crash/server-process.ts';
import { freePort } from '../support/restate/free-port.ts';

/*
 * `npm run start:cluster` over HTTP: the pipeline routes answer as under `npm start`, 50 runs
 * complete with one service process killed with kill -9 mid-way (none run twice), and after a
 * kill -9 of every process of the group, the same command on the same DATA_DIR completes every
 * acknowledged run.
 */
const SECRET = 'cluster-test-secret-0123456789abcdef';
const RUNS = 50;

let dataDir: string;
let env: Record<string, string>;
let server: ServerProcess;
let token: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cluster-'));
  token = await signToken('cluster-ada', SECRET);
  env = {
    SCARF_ANALYTICS: 'false',
    RESTATE_WORKERS: '2',
    RESTATE_INGRESS_PORT: String(await freePort()),
    RESTATE_ADMIN_PORT: String(await freePort()),
    RESTATE_NODE_PORT: String(await freePort()),
    RESTATE_ENDPOINT_PORT: String(await freePort()),
    MAX_WORKING_RUNS: '64',
    MAX_WORKING_RUNS_PER_USER: '64',
  };
  server = await start();
}, 120_000);

afterAll(async () => {
  await server?.stop().catch(() => undefined);
  await killAllServers();
  await rm(dataDir, { recursive: true, force: true });
});

function start() {
  return startServer({ entry: 'server/cluster-main.ts', dataDir, jwtSecret: SECRET, env, timeoutMs: 120_000 });
}

/** The pids the cluster printed last: its Restate server's and its service processes'. */
function processes(of: ServerProcess): { restate: number; workers: number[] } {
  const line = [...of.stdout().matchAll(/Processes: restate-server (\d+), service processes ([\d ]+)/g)].at(-1);
  if (!line) throw new Error(`The cluster printed no process line:\n${of.stdout()}`);
  return { restate: Number(line[1]), workers: line[2]!.trim().split(' ').map(Number) };
}

async function api(path: string, init: RequestInit = {}) {
  return fetch(`${server.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  });
}

async function startRuns(n: number): Promise<string[]> {
  const intake = await readFile('examples/nutrition-intake.json', 'utf8');
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const response = await api('/pipelines', { method: 'POST', body: intake });
    expect(response.status).toBe(201);
    ids.push(((await response.json()) as { pipeline_run_id: string }).pipeline_run_id);
  }
  return ids;
}

/** Polls each run until it is no longer working; returns the states. */
async function settled(ids: readonly string[]): Promise<Map<string, string>> {
  const states = new Map<string, string>();
  for (const id of ids)
    for (;;) {
      const body = (await (await api(`/pipelines/${id}`)).json()) as { state: string; status?: string };
      if (body.state === 'output_ready' || body.state === 'error') {
        states.set(id, body.state);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  return states;
}

/** Rows of Restate's introspection SQL (its admin API's `/query`). */
async function query(sql: string): Promise<Record<string, unknown>[]> {
  const response = await fetch(`http://127.0.0.1:${env.RESTATE_ADMIN_PORT}/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query: sql }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { rows: Record<string, unknown>[] }).rows;
}

function kill9(pid: number) {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

describe('npm run start:cluster', () => {
  it(`completes ${RUNS} runs with a service process killed with kill -9 mid-way, none twice`, async () => {
    const ids = await startRuns(RUNS / 2);
    kill9(processes(server).workers[0]!);
    ids.push(...(await startRuns(RUNS / 2)));
    const states = await settled(ids);
    expect([...states.values()].filter((state) => state === 'output_ready')).toHaveLength(RUNS);
    // Each brain call is one Restate invocation under its envelope id (its idempotency key): no key twice.
    const calls = await query(
      "select idempotency_key as key, count(*) as n from sys_invocation where target_service_name = 'nutrition-run' group by idempotency_key",
    );
    expect(calls.length).toBeGreaterThanOrEqual(RUNS);
    expect(calls.filter((row) => row.key === null || Number(row.n) !== 1)).toEqual([]);
  });

  it('goes on when its Restate server is killed with kill -9 mid-way (the cluster starts it again)', async () => {
    const ids = await startRuns(5);
    kill9(processes(server).restate);
    ids.push(...(await startRuns(5)));
    const states = await settled(ids);
    expect([...states.values()].filter((state) => state === 'output_ready')).toHaveLength(ids.length);
  });

  it('after kill -9 of the whole group, the same command on the same DATA_DIR completes every acknowledged run', async () => {
    const ids = await startRuns(10);
    const { restate, workers } = processes(server);
    for (const pid of [server.pid, restate, ...workers]) kill9(pid);
    await server.kill9();
    server = await start();
    const states = await settled(ids);
    expect([...states.values()].filter((state) => state === 'output_ready')).toHaveLength(ids.length);
  });
});
