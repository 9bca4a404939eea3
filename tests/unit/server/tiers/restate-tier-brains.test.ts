import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openModelBackends } from '../../../../actors/models/model-backends.ts';
import type { FleetSandbox } from '../../../../actors/tiers/fleet/fleet-sandbox.ts';
import { offlineArchitect } from '../../../../actors/tiers/planning/offline-architect.ts';
import type { RunTestsInput } from '../../../../actors/tiers/sandbox/run-tests.ts';
import { ValidationError } from '../../../../protocol/runtime/runtime-error.ts';
import { restateSandbox, restateTierBrains } from '../../../../server/tiers/restate-tier-brains.ts';
import { servedTierCalls } from '../../../../server/tiers/restate-tiers-object.ts';
import { inTierWork } from '../../../../server/tiers/tier-work-scope.ts';

/*
 * The tiers' calls both ways, with a fake ingress in place of Restate: the API side posts each
 * call to its task's `tiers-run` object under the key its tier work derives, and the service side
 * (`servedTierCalls`) answers it as JSON; nothing but JSON crosses.
 */
interface Received {
  path: string;
  key: string | undefined;
  body: { agent: string; id: string; input: any };
}

const received: Received[] = [];
const sandboxInputs: unknown[] = [];
/** Statuses the fake ingress answers before it serves a call (Restate restarting: 503). */
const refusals: number[] = [];
const refusedKeys: string[] = [];
const sandbox: FleetSandbox = {
  runTests: async (input) => {
    sandboxInputs.push(input);
    if (input.code.includes('throw'))
      throw new ValidationError('testCases[0]: not JSON', [{ path: 'testCases.0', message: 'not JSON' }]);
    return { verdict: 'ok', passed: 1, failed: 0, total: 1, cases: [], durationMs: 1 } as any;
  },
  runCalls: async () => ({ verdict: 'ok', results: [], durationMs: 1 }),
};
const served = servedTierCalls({
  architect: offlineArchitect,
  dispatcher: { route: async () => ({ assignments: [] }) },
  solver: null,
  sandbox,
});
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer(async (request, response) => {
    let text = '';
    for await (const chunk of request) text += chunk;
    const status = refusals.shift();
    if (status) {
      refusedKeys.push(request.headers['idempotency-key'] as string);
      return void response.writeHead(status).end('not now');
    }
    const body = JSON.parse(text) as Received['body'];
    received.push({ path: request.url ?? '', key: request.headers['idempotency-key'] as string | undefined, body });
    const call = served[body.agent as keyof typeof served];
    if (!call) return void response.writeHead(404).end(`no handler ${body.agent}`);
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(await call(body.input)));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const offline = openModelBackends({ primaryModel: 'claude-haiku-4-5' });
const work = { task: 'task 7', receiver: 'ABSTRACT_ARCHITECT', message: 'm-1' };
const problem = {
  statement: 'Return the index of target in the sorted array nums, or -1.',
  function_name: 'search',
  language: 'javascript',
  test_cases: [{ input: [[1, 3, 5], 3], expected: 1 }],
};
const testsInput: RunTestsInput = {
  code: 'function search() { return 1; }',
  functionName: 'search',
  testCases: problem.test_cases,
};

describe('restateTierBrains over an ingress', () => {
  it("plans on the task's tiers-run object, under the key its tier work derives, as the offline Architect plans", async () => {
    received.length = 0;
    const brains = restateTierBrains(url, offline);
    const input = { objective: 'Implement binary search', problem, constraints: ['O(log n)'] };
    const plan = await inTierWork(work, () => brains.architect.plan(input));
    expect(plan).toEqual(JSON.parse(JSON.stringify(await offlineArchitect.plan(input))));
    expect(received).toHaveLength(1);
    const [call] = received;
    expect(call!.path).toBe('/tiers-run/task%207/call');
    expect(call!.body.agent).toBe('architect');
    expect(call!.key).toBe(call!.body.id);
    expect(call!.key!.startsWith('m-1/')).toBe(true);
  });

  it('runs the sandbox there: the input without its signal, the report back; the same work again, the same keys', async () => {
    received.length = 0;
    sandboxInputs.length = 0;
    const brains = restateTierBrains(url, offline);
    const signal = new AbortController().signal;
    const run = () =>
      inTierWork({ ...work, receiver: 'SPECIALIZED_FLEET' }, () =>
        brains.specialists['js-solver']!.run({
          problem,
          task_type: 'execute_code',
          objective: 'Solve it',
          constraints: [],
          signal,
        }),
      );
    const first = await run();
    expect(first.status).toBe('success');
    expect(sandboxInputs.length).toBeGreaterThan(0);
    for (const input of sandboxInputs) expect(input).not.toHaveProperty('signal');
    const keys = received.map((r) => r.key);
    received.length = 0;
    await run();
    expect(received.map((r) => r.key)).toEqual(keys);
  });

  it('tries a call Restate did not take (503) again under the same key', async () => {
    received.length = 0;
    refusals.push(503, 503);
    const report = await inTierWork(work, () => restateSandbox(url).runTests(testsInput));
    expect(report).toMatchObject({ verdict: 'ok', passed: 1 });
    expect(received).toHaveLength(1);
    expect(refusedKeys).toEqual([received[0]!.key, received[0]!.key]);
  });

  it("throws an error answer as the brain's error (a ValidationError stays one), and names a refused call", async () => {
    const failing = inTierWork(work, () => restateSandbox(url).runTests({ ...testsInput, code: 'throw 1' }));
    await expect(failing).rejects.toBeInstanceOf(ValidationError);
    await expect(failing).rejects.toThrow('testCases[0]: not JSON');
    const solver = inTierWork(work, () =>
      restateTierBrains(url, claudeBackends).specialists['claude-solver']!.run({
        problem,
        task_type: 'execute_code',
        objective: 'x',
        constraints: [],
      }),
    );
    await expect(solver).rejects.toThrow(/refused the tiers' claude-solver call \(404\).*registered/);
  });

  it('has claude-solver in the fleet only with a model, on both sides', () => {
    expect(Object.keys(restateTierBrains(url, offline).specialists).sort()).toEqual([
      'js-solver',
      'reviewer',
      'test-designer',
    ]);
    expect(Object.keys(restateTierBrains(url, claudeBackends).specialists)).toContain('claude-solver');
    expect(Object.keys(served)).not.toContain('claude-solver');
  });
});

const claudeBackends = openModelBackends({
  primaryModel: 'claude-haiku-4-5',
  anthropicApiKey: 'sk-test',
  anthropicBaseUrl: 'http://127.0.0.1:9',
});
