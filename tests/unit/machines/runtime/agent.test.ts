import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { canonicalJson, inputHash } from '../../../../actors/runtime/input-hash.ts';
import { AgentReportSchema } from '../../../../protocol/runtime/agent-report.ts';
import type { AgentBrainInput, AgentReport } from '../../../../protocol/runtime/agent-report.ts';
import { ValidationError } from '../../../../protocol/runtime/runtime-error.ts';
import { flush, startAgentHarness } from '../../../support/agent-harness.ts';
import type { AgentHarness, BrainCall } from '../../../support/agent-harness.ts';

const TIMEOUT = 1_000;

function start(maxAttempts?: number): AgentHarness {
  return startAgentHarness({ name: 'SCIENTIST', timeoutMs: TIMEOUT, maxAttempts });
}

/** Every report, checked against the protocol schema on the way out. */
function reports(harness: AgentHarness): AgentReport[] {
  return harness.reports.map(({ report }) => AgentReportSchema.parse(report));
}

function call(harness: AgentHarness, index: number): BrainCall {
  const found = harness.calls[index];
  if (!found) throw new Error(`expected brain call #${index}, got ${harness.calls.length} calls`);
  return found;
}

describe('agentMachine', () => {
  it('runs the brain on a request and reports its output', async () => {
    const harness = start();
    harness.send({ type: 'agent.request', requestId: 'r1', input: { goal: 'cut' } });
    expect(harness.calls.map((c) => c.input)).toEqual([
      { agent: 'SCIENTIST', requestId: 'r1', input: { goal: 'cut' }, attempt: 1 },
    ]);
    call(harness, 0).resolve({ tdee: 2500 });
    await flush();
    expect(reports(harness)).toEqual([
      {
        type: 'agent.report',
        agent: 'SCIENTIST',
        requestId: 'r1',
        attempts: 1,
        outcome: { status: 'completed', output: { tdee: 2500 } },
      },
    ]);
  });

  it('retries once with identical input after a timeout, then reports the retry', async () => {
    const harness = start();
    const input = { goal: 'bulk', days: [1, 2] };
    harness.send({ type: 'agent.request', requestId: 'r1', input });
    harness.clock.increment(TIMEOUT - 1);
    expect(harness.calls).toHaveLength(1);
    harness.clock.increment(1);
    expect(harness.calls).toHaveLength(2);
    expect(call(harness, 0).signal.aborted).toBe(true);
    expect(call(harness, 1).input).toEqual({
      agent: 'SCIENTIST',
      requestId: 'r1',
      input,
      attempt: 2,
    });
    expect(call(harness, 1).input.input).toBe(input);
    // The timed-out run answering late must not count.
    call(harness, 0).resolve('late');
    await flush();
    expect(harness.reports).toEqual([]);
    call(harness, 1).resolve('on time');
    await flush();
    expect(reports(harness).map((r) => [r.attempts, r.outcome])).toEqual([
      [2, { status: 'completed', output: 'on time' }],
    ]);
  });

  it('reports a timeout with duration and input hash when the retry times out too', async () => {
    const harness = start();
    const input = { b: 2, a: [1, { d: 4, c: 3 }] };
    harness.send({ type: 'agent.request', requestId: 'r1', input });
    harness.clock.increment(TIMEOUT);
    harness.clock.increment(TIMEOUT - 1);
    expect(harness.reports).toEqual([]);
    harness.clock.increment(1);
    await flush();
    const expectedHash = createHash('sha256').update('{"a":[1,{"c":3,"d":4}],"b":2}').digest('hex');
    expect(reports(harness)).toEqual([
      {
        type: 'agent.report',
        agent: 'SCIENTIST',
        requestId: 'r1',
        attempts: 2,
        outcome: {
          status: 'failed',
          failure: { kind: 'timeout', timeout_duration_ms: TIMEOUT, input_hash: expectedHash },
        },
      },
    ]);
    expect(harness.calls).toHaveLength(2);
    expect(harness.calls.every((c) => c.signal.aborted)).toBe(true);
  });

  it('uses the 30 s timeout of §9 by default', () => {
    const harness = startAgentHarness({ name: 'CHEF' });
    harness.send({ type: 'agent.request', requestId: 'r1', input: null });
    harness.clock.increment(29_999);
    expect(harness.calls).toHaveLength(1);
    harness.clock.increment(1);
    expect(harness.calls).toHaveLength(2);
  });

  it('retries once after a thrown error, then succeeds', async () => {
    const harness = start();
    harness.send({ type: 'agent.request', requestId: 'r1', input: 'x' });
    call(harness, 0).reject(new Error('model overloaded'));
    await flush();
    expect(call(harness, 1).input.attempt).toBe(2);
    call(harness, 1).resolve('ok');
    await flush();
    expect(reports(harness).map((r) => [r.attempts, r.outcome])).toEqual([[2, { status: 'completed', output: 'ok' }]]);
  });

  it('reports the last error when the retry throws too', async () => {
    const harness = start();
    harness.send({ type: 'agent.request', requestId: 'r1', input: 'x' });
    call(harness, 0).reject(new Error('first'));
    await flush();
    call(harness, 1).reject(new Error('second'));
    await flush();
    expect(harness.calls).toHaveLength(2);
    expect(reports(harness).map((r) => [r.attempts, r.outcome])).toEqual([
      [2, { status: 'failed', failure: { kind: 'error', message: 'second' } }],
    ]);
  });

  it('honours maxAttempts', async () => {
    const harness = start(1);
    harness.send({ type: 'agent.request', requestId: 'r1', input: 'x' });
    harness.clock.increment(TIMEOUT);
    await flush();
    expect(harness.calls).toHaveLength(1);
    expect(reports(harness)[0]?.outcome).toMatchObject({ failure: { kind: 'timeout' } });
  });

  it('reports a validation failure at once, without retrying', async () => {
    const harness = start();
    const issues = [{ path: 'payload.tdee', message: 'Expected number, received string' }];
    harness.send({ type: 'agent.request', requestId: 'r1', input: 'x' });
    call(harness, 0).reject(new ValidationError('bad output', issues));
    await flush();
    harness.clock.increment(TIMEOUT * 3);
    expect(harness.calls).toHaveLength(1);
    expect(reports(harness).map((r) => [r.attempts, r.outcome])).toEqual([
      [1, { status: 'failed', failure: { kind: 'validation', issues } }],
    ]);
  });

  it('aborts the brain signal when the running request is cancelled', async () => {
    const harness = start();
    harness.send({ type: 'agent.request', requestId: 'r1', input: 'x' });
    const { signal } = call(harness, 0);
    expect(signal.aborted).toBe(false);
    harness.send({ type: 'agent.cancel', requestId: 'r1' });
    expect(signal.aborted).toBe(true);
    call(harness, 0).resolve('too late');
    harness.clock.increment(TIMEOUT * 3);
    await flush();
    expect(harness.calls).toHaveLength(1);
    expect(reports(harness).map((r) => [r.requestId, r.attempts, r.outcome])).toEqual([
      ['r1', 1, { status: 'cancelled' }],
    ]);
  });

  it('runs queued requests one at a time in arrival order', async () => {
    const harness = start();
    for (const id of ['r1', 'r2', 'r3']) {
      harness.send({ type: 'agent.request', requestId: id, input: id });
    }
    const running = () => harness.calls.filter((c) => !c.settled).map((c) => c.input.requestId);
    expect(running()).toEqual(['r1']);
    call(harness, 0).resolve(1);
    await flush();
    expect(running()).toEqual(['r2']);
    call(harness, 1).resolve(2);
    await flush();
    expect(running()).toEqual(['r3']);
    call(harness, 2).resolve(3);
    await flush();
    expect(reports(harness).map((r) => [r.requestId, r.outcome])).toEqual([
      ['r1', { status: 'completed', output: 1 }],
      ['r2', { status: 'completed', output: 2 }],
      ['r3', { status: 'completed', output: 3 }],
    ]);
  });

  it('cancels a queued request without ever starting its brain', async () => {
    const harness = start();
    for (const id of ['r1', 'r2', 'r3']) {
      harness.send({ type: 'agent.request', requestId: id, input: id });
    }
    harness.send({ type: 'agent.cancel', requestId: 'r2' });
    expect(call(harness, 0).signal.aborted).toBe(false);
    call(harness, 0).resolve('one');
    await flush();
    call(harness, 1).resolve('three');
    await flush();
    expect(harness.calls.map((c) => c.input.requestId)).toEqual(['r1', 'r3']);
    expect(reports(harness).map((r) => [r.requestId, r.attempts, r.outcome.status])).toEqual([
      ['r2', 0, 'cancelled'],
      ['r1', 1, 'completed'],
      ['r3', 1, 'completed'],
    ]);
  });

  it('cancels the current request and everything queued when no id is given', async () => {
    const harness = start();
    for (const id of ['r1', 'r2', 'r3']) {
      harness.send({ type: 'agent.request', requestId: id, input: id });
    }
    harness.send({ type: 'agent.cancel' });
    harness.clock.increment(TIMEOUT * 3);
    await flush();
    expect(harness.calls).toHaveLength(1);
    expect(call(harness, 0).signal.aborted).toBe(true);
    expect(reports(harness).map((r) => [r.requestId, r.attempts, r.outcome.status])).toEqual([
      ['r1', 1, 'cancelled'],
      ['r2', 0, 'cancelled'],
      ['r3', 0, 'cancelled'],
    ]);
  });

  it('ignores a cancel for an unknown id and keeps serving afterwards', async () => {
    const harness = start();
    harness.send({ type: 'agent.cancel', requestId: 'nobody' });
    harness.send({ type: 'agent.request', requestId: 'r1', input: 1 });
    harness.send({ type: 'agent.cancel', requestId: 'nobody' });
    expect(call(harness, 0).signal.aborted).toBe(false);
    call(harness, 0).resolve('done');
    await flush();
    harness.send({ type: 'agent.request', requestId: 'r2', input: 2 });
    call(harness, 1).resolve('again');
    await flush();
    expect(reports(harness).map((r) => r.requestId)).toEqual(['r1', 'r2']);
    expect(harness.parent.getSnapshot().children.agent?.getSnapshot().status).toBe('active');
  });

  it('accepts a provided brain with a typed output', async () => {
    const brain = fromPromise<{ echoed: unknown }, AgentBrainInput>(async ({ input }) => ({
      echoed: input.input,
    }));
    const harness = startAgentHarness({ name: 'COACH' }, brain);
    harness.send({ type: 'agent.request', requestId: 'r1', input: [1, 2] });
    await flush();
    expect(reports(harness)[0]?.outcome).toEqual({
      status: 'completed',
      output: { echoed: [1, 2] },
    });
  });

  it('says how to fix a missing brain', async () => {
    const harness = startAgentHarness({ name: 'DIETITIAN' }, 'default');
    harness.send({ type: 'agent.request', requestId: 'r1', input: 1 });
    await flush();
    await flush();
    const [report] = reports(harness);
    expect(report?.attempts).toBe(2);
    expect(report?.outcome).toMatchObject({ status: 'failed', failure: { kind: 'error' } });
    const failure = report?.outcome.status === 'failed' ? report.outcome.failure : undefined;
    expect(failure?.kind === 'error' && failure.message).toMatch(
      /No brain provided for agent DIETITIAN.*agentMachine\.provide/,
    );
  });
});

describe('inputHash', () => {
  it('ignores key order and follows JSON for values without a JSON form', () => {
    expect(canonicalJson({ b: 1, a: { y: [undefined, 2], x: 'é' }, c: undefined, 10: 0 })).toBe(
      '{"10":0,"a":{"x":"é","y":[null,2]},"b":1}',
    );
    expect(inputHash({ a: 1, b: 2 })).toBe(inputHash({ b: 2, a: 1 }));
    expect(inputHash({ a: 1 })).not.toBe(inputHash({ a: 2 }));
    expect(canonicalJson(new Date(0))).toBe('"1970-01-01T00:00:00.000Z"');
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('refuses cycles rather than looping', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(TypeError);
  });
});
