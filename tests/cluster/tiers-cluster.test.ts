import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../../server/auth.ts';
import { killAllServers, startServer, type ServerProcess } from '../support/crash/server-process.ts';
import { clusterEnv } from '../support/restate/free-port.ts';
import { callsByTask, processes, restateQuery } from '../support/restate/cluster-calls.ts';

/*
 * The tiers on `npm run start:cluster`: each task is its `tiers-host` object on Restate, its
 * Architect, Dispatcher and sandbox runs made by `tiers-run/<task>` (one `ctx.run` each). A task
 * over HTTP is solved; with a service process killed with kill -9 mid-task every task completes
 * and no call is made twice; after a kill -9 of the whole group, the same command on the same DATA_DIR completes
 * every acknowledged task, its answered calls taken from Restate under their keys.
 */
const SECRET = 'cluster-test-secret-0123456789abcdef';

let dataDir: string;
let env: Record<string, string>;
let server: ServerProcess;
let token: string;
let task: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cluster-tiers-'));
  token = await signToken('cluster-ada', SECRET);
  task = await readFile('examples/tiers-task.json', 'utf8');
  env = {
    ...(await clusterEnv()),
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

const adminUrl = () => `http://127.0.0.1:${env.RESTATE_ADMIN_PORT}`;

async function api(path: string, init: RequestInit = {}) {
  return fetch(`${server.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  });
}

async function submit(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const response = await api('/tiers/tasks', { method: 'POST', body: task });
    expect(response.status).toBe(201);
    ids.push(((await response.json()) as { task_id: string }).task_id);
  }
  return ids;
}

/** Polls each task until it no longer works; returns their views. */
async function settled(ids: readonly string[]): Promise<Map<string, any>> {
  const views = new Map<string, any>();
  for (const id of ids)
    for (;;) {
      const view = (await (await api(`/tiers/tasks/${id}`)).json()) as { status: string };
      if (view.status !== 'working') {
        views.set(id, view);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  return views;
}

/** Each task's Architect, Dispatcher and solve calls were made once on Restate; every key is one invocation. */
async function expectEachCallOnce(ids: readonly string[]) {
  const calls = await callsByTask(adminUrl(), ids);
  for (const id of ids) {
    const made = calls.get(id) ?? [];
    const count = (agent: string) => made.filter((call) => call.agent === agent).length;
    expect({
      architect: count('architect'),
      dispatcher: count('dispatcher'),
      runTests: count('sandbox.runTests'),
    }).toEqual({ architect: 1, dispatcher: 1, runTests: 1 });
    // The test designer's run and the reviewer's timings are sandbox runs on Restate too.
    expect(count('sandbox.runCalls')).toBeGreaterThanOrEqual(2);
  }
  await expectKeysOnce();
}

/** Every idempotency key of a `tiers-run` call is one invocation. */
async function expectKeysOnce() {
  const keys = await restateQuery(
    adminUrl(),
    "select idempotency_key as key, count(*) as n from sys_invocation where target_service_name = 'tiers-run' group by idempotency_key",
  );
  expect(keys.filter((row) => row.key === null || Number(row.n) !== 1)).toEqual([]);
}

function kill9(pid: number) {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

describe('the tiers on npm run start:cluster', () => {
  it('solves a task over HTTP: success, its code, a test_result counted by the sandbox on Restate', async () => {
    const [id] = await submit(1);
    const view = (await settled([id!])).get(id!);
    expect(view.status).toBe('success');
    const artifacts = view.outcome.artifacts as {
      artifact_type: string;
      inline_content: string | null;
      metadata: any;
    }[];
    const code = artifacts.find((a) => a.artifact_type === 'code')!;
    const search = new Function(`${code.inline_content}; return search;`)() as (n: number[], t: number) => number;
    expect(search([2, 4, 6, 8, 10, 12, 14], 12)).toBe(5);
    const total = JSON.parse(task).problem.test_cases.length;
    expect(artifacts.find((a) => a.artifact_type === 'test_result')!.metadata).toMatchObject({
      passed: total,
      failed: 0,
    });
    await expectEachCallOnce([id!]);
    // The task lives on Restate: its object's state, not this process's journals.
    const state = await restateQuery(
      adminUrl(),
      `select key from state where service_name = 'tiers-host' and service_key = '${id}'`,
    );
    expect(state.map((row) => row.key)).toEqual(['task']);
    const journals = await readdir(join(dataDir, 'journal')).catch(() => [] as string[]);
    expect(journals.filter((name) => ['tiers', 'tiers-trees', 'tiers-beads'].includes(name))).toEqual([]);
  });

  it('completes every task with a service process killed with kill -9 mid-task, no call made twice', async () => {
    const ids = await submit(4);
    // Mid-task: some of these tasks' calls answered on Restate, the tasks still working.
    for (;;) {
      const made = await callsByTask(adminUrl(), ids);
      if ([...made.values()].flat().length >= 3) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    kill9(processes(server.stdout()).workers[0]!);
    const views = await settled(ids);
    expect([...views.values()].map((view) => view.status)).toEqual(ids.map(() => 'success'));
    await expectEachCallOnce(ids);
  });

  it('after kill -9 of the whole group, the same command on the same DATA_DIR completes every acknowledged task', async () => {
    const ids = await submit(4);
    for (;;) {
      const made = await callsByTask(adminUrl(), ids);
      if ([...made.values()].flat().length >= 2) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const { restate, workers } = processes(server.stdout());
    for (const pid of [server.pid, restate, ...workers]) kill9(pid);
    await server.kill9();
    server = await start();
    const views = await settled(ids);
    expect([...views.values()].map((view) => view.status)).toEqual(ids.map(() => 'success'));
    // Work redone after the restart called Restate under its first keys: still one Architect call a task.
    // (A delegation whose watchdog ran out during the restart is retried: a new message, new calls.)
    const calls = await callsByTask(adminUrl(), ids);
    expect(ids.map((id) => calls.get(id)?.filter((call) => call.agent === 'architect').length)).toEqual(
      ids.map(() => 1),
    );
    await expectKeysOnce();
  });
});
