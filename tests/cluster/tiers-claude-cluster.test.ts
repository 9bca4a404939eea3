import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../../server/auth.ts';
import { killAllServers, startServer, type ServerProcess } from '../support/crash/server-process.ts';
import {
  startFakeModelServer,
  type AnthropicReply,
  type FakeModelServer,
} from '../support/models/fake-model-server.ts';
import { checkForcedToolRequest } from '../support/models/fake-claude-checks.ts';
import { clusterEnv } from '../support/restate/free-port.ts';
import { callsByTask, processes } from '../support/restate/cluster-calls.ts';
import { socketOwner } from '../support/restate/socket-owner.ts';

/*
 * The tiers on Claude on `npm run start:cluster`, every model call counted by a fake Messages
 * server on localhost (the real wire format): the Architect, the Dispatcher and claude-solver
 * answer on the service processes, one `ctx.run` each. The first solver call is held, and the
 * service process making it is killed with kill -9: Restate makes that call again on the other,
 * and no call that had answered (a plan, an assignment, another task's solution)
 * is made twice.
 */
const SECRET = 'cluster-test-secret-0123456789abcdef';
const TASKS = 3;
const SEARCH = `function search(nums, target) {
  let lo = 0, hi = nums.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (nums[mid] === target) return mid;
    if (nums[mid] < target) lo = mid + 1; else hi = mid - 1;
  }
  return -1;
}`;

let dataDir: string;
let env: Record<string, string>;
let server: ServerProcess;
let claude: FakeModelServer;
let token: string;
let task: string;
/** Answers the held solver call (at the end, so the fake server can close). */
let release: (reply: AnthropicReply) => void = () => {};
const asked = new Map<string, number>();
/** The port of the held solver call's connection: its service process is the one to kill. */
let heldPort: number | undefined;

/** The scripted model: one plan (a single solve for claude-solver), its assignment, a binary search. */
function reply(body: Record<string, any>): AnthropicReply | Promise<AnthropicReply> {
  const tool = String(body['tool_choice']?.name);
  asked.set(tool, (asked.get(tool) ?? 0) + 1);
  const input: Record<string, Record<string, unknown>> = {
    submit_plan: {
      objective: 'Implement binary search',
      constraints: [],
      subtasks: [
        {
          key: 'solve',
          task_type: 'execute_code',
          objective: 'Write search(nums, target)',
          constraints: [],
          specialist_hint: 'claude-solver',
          depends_on: [],
          task_data: {},
        },
      ],
      aggregation_strategy: 'all_success',
      rationale: 'One solver suffices.',
    },
    submit_assignments: { assignments: [{ key: 'solve', specialist: 'claude-solver', reason: 'the model solver' }] },
    submit_solution: { code: SEARCH, complexity: 'O(log n)', approach: 'Halve the range each step.' },
  };
  const answer: AnthropicReply = { toolUse: { name: tool, input: input[tool]! } };
  if (tool === 'submit_solution' && asked.get(tool) === 1) {
    heldPort = claude.requests.find((request) => request.body === body)?.remotePort;
    return new Promise((resolve) => (release = resolve));
  }
  return answer;
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cluster-tiers-claude-'));
  token = await signToken('cluster-ada', SECRET);
  task = await readFile('examples/tiers-task.json', 'utf8');
  claude = await startFakeModelServer({ anthropicRules: checkForcedToolRequest, anthropic: reply });
  env = {
    ...(await clusterEnv()),
    ANTHROPIC_API_KEY: 'sk-fake-cluster',
    ANTHROPIC_BASE_URL: claude.url,
  };
  server = await startServer({
    entry: 'server/cluster-main.ts',
    dataDir,
    jwtSecret: SECRET,
    env,
    timeoutMs: 120_000,
  });
}, 120_000);

afterAll(async () => {
  release({ error: { status: 529, message: 'the test is over' } });
  await server?.stop().catch(() => undefined);
  await killAllServers();
  await claude?.close();
  await rm(dataDir, { recursive: true, force: true });
}, 60_000);

async function api(path: string, init: RequestInit = {}) {
  return fetch(`${server.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  });
}

describe('the tiers on Claude on npm run start:cluster', () => {
  it('makes a held solver call again after its service process is killed with kill -9, and no answered call twice', async () => {
    const ids: string[] = [];
    for (let i = 0; i < TASKS; i++) {
      const response = await api('/tiers/tasks', { method: 'POST', body: task });
      expect(response.status).toBe(201);
      ids.push(((await response.json()) as { task_id: string }).task_id);
    }
    // The first solver call is held. Once the others answered (their ctx.run journaled: a solver's
    // step is its model call and the sandbox runs of its answer), kill the service process that holds it.
    const adminUrl = `http://127.0.0.1:${env.RESTATE_ADMIN_PORT}`;
    const solved = async () =>
      [...(await callsByTask(adminUrl, ids)).values()]
        .flat()
        .filter((call) => call.agent === 'claude-solver' && call.status === 'completed').length;
    while ((asked.get('submit_solution') ?? 0) < TASKS || (await solved()) < TASKS - 1)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const worker = await socketOwner(heldPort!, processes(server.stdout()).workers);
    expect(worker).toBeDefined();
    process.kill(worker!, 'SIGKILL');

    const views: any[] = [];
    for (const id of ids)
      for (;;) {
        const view = (await (await api(`/tiers/tasks/${id}`)).json()) as { status: string };
        if (view.status !== 'working') {
          views.push(view);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    expect(views.map((view) => view.status)).toEqual(ids.map(() => 'success'));
    for (const view of views) {
      const artifacts = view.outcome.artifacts as { artifact_type: string; metadata: any }[];
      expect(artifacts.find((a) => a.artifact_type === 'test_result')!.metadata).toMatchObject({
        passed: 5,
        failed: 0,
      });
      expect(view.outcome.resources_used.specialists_used).toEqual(['claude-solver']);
    }
    // One plan and one assignment a task; one solution a task, and the held one made again, once.
    expect(Object.fromEntries(asked)).toEqual({
      submit_plan: TASKS,
      submit_assignments: TASKS,
      submit_solution: TASKS + 1,
    });
    expect(claude.violations).toEqual([]);
    // Each model call was one ctx.run of its task's tiers-run object.
    const calls = await callsByTask(adminUrl, ids);
    for (const id of ids)
      expect((calls.get(id) ?? []).map((call) => call.agent).sort()).toEqual([
        'architect',
        'claude-solver',
        'dispatcher',
      ]);
  });
});
