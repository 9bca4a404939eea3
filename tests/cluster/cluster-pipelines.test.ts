import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../../server/auth.ts';
import { killAllServers, startServer, type ServerProcess } from '../support/crash/server-process.ts';
import { clusterEnv } from '../support/restate/free-port.ts';

/*
 * `npm run start:cluster` over HTTP, each pipeline run a `nutrition-host` object on Restate: 50
 * runs complete with one service process killed with kill -9 mid-way (none run twice: one
 * `deliver` per intake id, each brain's output journaled once per run), the Restate server
 * killed mid-way is started again and its runs go on, and after a kill -9 of every process of
 * the group, the same command on the same DATA_DIR completes every acknowledged run.
 */
const SECRET = 'cluster-test-secret-0123456789abcdef';
const RUNS = 50;
/** How long `settled` waits for the runs of one test. */
const SETTLE_MS = 90_000;

let dataDir: string;
let env: Record<string, string>;
let server: ServerProcess;
let token: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cluster-'));
  token = await signToken('cluster-ada', SECRET);
  env = {
    ...(await clusterEnv()),
    MAX_WORKING_RUNS: '64',
    MAX_WORKING_RUNS_PER_USER: '64',
  };
  server = await start();
}, 120_000);

afterAll(async () => {
  await server?.stop().catch(() => undefined);
  await killAllServers();
  await rm(dataDir, { recursive: true, force: true });
}, 60_000);

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

/**
 * Starts `n` runs as a client would: a 503 (Restate not answering while it restarts) is sent
 * again after its `Retry-After`, a bounded number of times; every run returned was acknowledged.
 */
async function startRuns(n: number): Promise<string[]> {
  const intake = await readFile('examples/nutrition-intake.json', 'utf8');
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    let response = await api('/pipelines', { method: 'POST', body: intake });
    for (let retries = 0; response.status === 503 && retries < 10; retries++) {
      const wait = Number(response.headers.get('retry-after'));
      expect(wait).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
      response = await api('/pipelines', { method: 'POST', body: intake });
    }
    expect(response.status).toBe(201);
    ids.push(((await response.json()) as { pipeline_run_id: string }).pipeline_run_id);
  }
  return ids;
}

interface Envelope {
  message_id: string;
  from_agent: string;
  data_type: string;
}

/** A run's journal over HTTP (read from its object's state). */
async function journalOf(id: string): Promise<Envelope[]> {
  const response = await api(`/pipelines/${id}/messages`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { messages: Envelope[] }).messages;
}

/**
 * Polls each run until it is no longer working; returns the states. A run still working after
 * `SETTLE_MS` fails the test with what it last answered, the cluster's output and its Restate
 * server's log (a stall explains itself instead of running into the test's timeout).
 */
async function settled(ids: readonly string[]): Promise<Map<string, string>> {
  const states = new Map<string, string>();
  const deadline = Date.now() + SETTLE_MS;
  for (const id of ids) {
    for (;;) {
      const response = await api(`/pipelines/${id}`);
      const last = `${response.status} ${await response.text()}`;
      const state = response.ok ? (JSON.parse(last.slice(4)) as { state: string }).state : undefined;
      if (state === 'output_ready' || state === 'error') {
        states.set(id, state);
        break;
      }
      if (Date.now() > deadline) throw new Error(await stalled(id, last.slice(0, 500)));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return states;
}

async function stalled(id: string, last: string): Promise<string> {
  const log = await readFile(join(dataDir, 'restate', 'server.log'), 'utf8').catch(() => '(none)');
  return [
    `Run ${id} still works ${SETTLE_MS} ms on; it last answered: ${last}`,
    `--- cluster stderr ---\n${server.stderr().slice(-4_000)}`,
    `--- cluster stdout ---\n${server.stdout().slice(-2_000)}`,
    `--- restate server.log ---\n${log.slice(-6_000)}`,
  ].join('\n');
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
    // Each intake is one `deliver` invocation of its run's object, under its envelope id as idempotency key.
    const delivers = await query(
      "select target_service_key as run, idempotency_key as key from sys_invocation where target_service_name = 'nutrition-host' and target_handler_name = 'deliver'",
    );
    expect(new Set(delivers.map((row) => row.run))).toEqual(new Set(ids));
    expect(delivers.every((row) => typeof row.key === 'string')).toBe(true);
    expect(new Set(delivers.map((row) => row.key)).size).toBe(delivers.length);
    // None ran twice: each run's journal holds each envelope once and each agent's output once.
    const reference = (await journalOf(ids[0]!)).map((e) => `${e.from_agent}:${e.data_type}`).sort();
    expect(reference).toContain('COACH:training_program');
    for (const id of ids) {
      const journal = await journalOf(id);
      expect(new Set(journal.map((e) => e.message_id)).size).toBe(journal.length);
      expect(journal.map((e) => `${e.from_agent}:${e.data_type}`).sort()).toEqual(reference);
    }
    // Each brain call is one `nutrition-brains` invocation (a call cut off by the kill is the same
    // invocation retried): one per agent of the journal and run, no more.
    const agents = new Set((await journalOf(ids[0]!)).map((e) => e.from_agent).filter((a) => a !== 'USER'));
    const calls = await query(
      "select status, count(*) as n from sys_invocation where target_service_name = 'nutrition-brains' group by status",
    );
    expect(calls.map((row) => [row.status, Number(row.n)])).toEqual([['completed', agents.size * RUNS]]);
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
  }, 240_000);
});
