import { describe, expect, it } from 'vitest';
import type { FleetSandbox } from '../../../../actors/tiers/fleet/fleet-sandbox.ts';
import { offlineArchitect } from '../../../../actors/tiers/planning/offline-architect.ts';
import type { RunTestsInput } from '../../../../actors/tiers/sandbox/run-tests.ts';
import { ValidationError } from '../../../../protocol/runtime/runtime-error.ts';
import type { BrainAnswer } from '../../../../server/restate/served-brains.ts';
import { TierCalls, tierBrainsAsking } from '../../../../server/tiers/restate-tier-brains.ts';
import { servedTierCalls, type TiersCall } from '../../../../server/tiers/restate-tiers-object.ts';
import { inTierWork } from '../../../../server/tiers/tier-work-scope.ts';

/*
 * The tiers' calls both ways, as a `tiers-host` handler and `tiers-run` make them: the task's
 * brains ask `TierCalls` (answered from the object's state, or queued to be sent under the key
 * their tier work derives), and the service side (`servedTierCalls`) answers each as JSON;
 * nothing but JSON crosses.
 */
const sandboxInputs: unknown[] = [];
const sandbox: FleetSandbox = {
  runTests: async (input) => {
    sandboxInputs.push(input);
    if (input.code.includes('throw'))
      throw new ValidationError('testCases[0]: not JSON', [{ path: 'testCases.0', message: 'not JSON' }]);
    return { verdict: 'ok', passed: 1, failed: 0, total: 1, cases: [], durationMs: 1 } as any;
  },
  runCalls: async (input) => {
    sandboxInputs.push(input);
    return { verdict: 'ok', results: [], durationMs: 1 } as any;
  },
};
const served = servedTierCalls({
  architect: offlineArchitect,
  dispatcher: { route: async () => ({ assignments: [] }) },
  solver: null,
  sandbox,
});

const work = { receiver: 'ABSTRACT_ARCHITECT', message: 'm-1' };
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

/** Whether a promise settled within a few turns of the event loop. */
async function settledSoon(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

/**
 * Runs `make` as a handler would, answering each call it queues from `served` and making it again
 * from the start (the next handler), until it needs no call; answers its result and every call made.
 */
async function untilAnswered<T>(make: (calls: TierCalls) => Promise<T>): Promise<{ value: T; made: string[] }> {
  const answers: Record<string, BrainAnswer> = {};
  const made: string[] = [];
  for (let round = 0; round < 20; round++) {
    const calls = new TierCalls(answers, new Set());
    let outcome: { value: T } | { error: unknown } | undefined;
    make(calls).then(
      (value) => (outcome = { value }),
      (error: unknown) => (outcome = { error }),
    );
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
    if (outcome) {
      if ('error' in outcome) throw outcome.error;
      return { value: outcome.value, made };
    }
    for (const call of calls.toSend()) {
      made.push(call.id);
      answers[call.id] = (await served[call.agent as TiersCall]!(call.input)) as BrainAnswer;
    }
  }
  throw new Error('Never answered.');
}

describe('TierCalls', () => {
  it('queues a new call once under the key its tier work derives, and leaves it waiting', async () => {
    const calls = new TierCalls({}, new Set());
    const input = { objective: 'Implement binary search', problem, constraints: [] };
    const first = inTierWork(work, () => calls.ask('architect', input));
    const [queued] = calls.toSend();
    expect(queued).toMatchObject({ agent: 'architect', input });
    expect(queued!.id.startsWith('m-1/')).toBe(true);
    expect(await settledSoon(first)).toBe(false);
    // The same work done again asks under the same key: not queued twice.
    void inTierWork(work, () => calls.ask('architect', input));
    expect(calls.toSend()).toHaveLength(1);
    // A call already sent (and not answered) is not queued again by a later handler.
    const later = new TierCalls({}, new Set([queued!.id]));
    void inTierWork(work, () => later.ask('architect', input));
    expect(later.toSend()).toEqual([]);
  });

  it('answers from the state: the output, or the error (a ValidationError stays one)', async () => {
    const key = (kind: TiersCall, input: unknown) => {
      const probe = new TierCalls({}, new Set());
      void inTierWork(work, () => probe.ask(kind, input));
      return probe.toSend()[0]!.id;
    };
    const ok = key('sandbox.runTests', testsInput);
    const bad = key('sandbox.runCalls', testsInput);
    const calls = new TierCalls(
      {
        [ok]: { output: { verdict: 'ok' } },
        [bad]: { error: { name: 'ValidationError', message: 'not JSON', issues: [{ path: 'x', message: 'no' }] } },
      },
      new Set(),
    );
    await expect(inTierWork(work, () => calls.ask('sandbox.runTests', testsInput))).resolves.toEqual({ verdict: 'ok' });
    const failing = inTierWork(work, () => calls.ask('sandbox.runCalls', testsInput));
    await expect(failing).rejects.toBeInstanceOf(ValidationError);
    await expect(failing).rejects.toThrow('not JSON');
    expect(calls.toSend()).toEqual([]);
  });

  it('refuses a call made outside a tier work (its key could name no message)', () => {
    expect(() => new TierCalls({}, new Set()).ask('architect', {})).toThrow(/outside a tier's work/);
  });
});

describe('tierBrainsAsking', () => {
  it('plans as the offline Architect plans, through one call', async () => {
    const input = { objective: 'Implement binary search', problem, constraints: ['O(log n)'] };
    const { value, made } = await untilAnswered((calls) =>
      inTierWork(work, () => tierBrainsAsking((agent, i) => calls.ask(agent, i), false).architect.plan(input)),
    );
    expect(value).toEqual(JSON.parse(JSON.stringify(await offlineArchitect.plan(input))));
    expect(made).toHaveLength(1);
  });

  it("runs a specialist's logic here over the sandbox there: its inputs without the signal, the same keys again", async () => {
    sandboxInputs.length = 0;
    const signal = new AbortController().signal;
    const solve = (calls: TierCalls) =>
      inTierWork({ ...work, receiver: 'SPECIALIZED_FLEET' }, () =>
        tierBrainsAsking((agent, i) => calls.ask(agent, i), false).specialists['js-solver']!.run({
          problem,
          task_type: 'execute_code',
          objective: 'Solve it',
          constraints: [],
          signal,
        }),
      );
    const first = await untilAnswered(solve);
    expect(first.value.status).toBe('success');
    expect(sandboxInputs.length).toBeGreaterThan(0);
    for (const input of sandboxInputs) expect(input).not.toHaveProperty('signal');
    const again = await untilAnswered(solve);
    expect(again.made).toEqual(first.made);
  });

  it('has claude-solver in the fleet only with a model', () => {
    const ask = async () => undefined;
    expect(Object.keys(tierBrainsAsking(ask, false).specialists).sort()).toEqual([
      'js-solver',
      'reviewer',
      'test-designer',
    ]);
    expect(Object.keys(tierBrainsAsking(ask, true).specialists)).toContain('claude-solver');
    expect(Object.keys(served)).not.toContain('claude-solver');
  });
});
