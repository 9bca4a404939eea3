import { describe, expect, it } from 'vitest';
import { AgentAckEventSchema, AgentReportSchema } from '../../../../protocol/runtime/agent-report.ts';
import { flush, startAgentHarness, type AgentHarness } from '../../../support/agent-harness.ts';

/* The agent worker's side of acknowledged delivery and back-pressure (agent.ts, agent-mailbox.ts). */

function start(options: { maxQueued?: number; doneMemory?: number; retryAfterMs?: number } = {}): AgentHarness {
  return startAgentHarness({ name: 'backend', timeoutMs: 1_000, ...options });
}

const request = (requestId: string, ack = true) =>
  ack
    ? ({ type: 'agent.request', requestId, input: { n: requestId }, ack: true } as const)
    : ({ type: 'agent.request', requestId, input: { n: requestId } } as const);

const statuses = (harness: AgentHarness) =>
  harness.reports.map(({ report }) => [report.requestId, AgentReportSchema.parse(report).outcome.status]);

describe('agent acknowledgment', () => {
  it('acks a request when it takes it from its mailbox and starts on it, never while it waits', async () => {
    const harness = start();
    harness.send(request('r1'));
    expect(harness.acks()).toEqual(['r1']);
    expect(AgentAckEventSchema.parse(harness.parent.getSnapshot().context.acks[0])).toEqual({
      type: 'agent.ack',
      agent: 'backend',
      requestId: 'r1',
    });
    harness.send(request('r2'));
    expect(harness.acks()).toEqual(['r1']);
    harness.activeCall()!.resolve('done 1');
    await flush();
    expect(harness.acks()).toEqual(['r1', 'r2']);
    expect(harness.calls.map((c) => c.input.requestId)).toEqual(['r1', 'r2']);
  });

  it('does not ack a request that asked for no ack', () => {
    const harness = start();
    harness.send(request('r1', false));
    expect(harness.calls).toHaveLength(1);
    expect(harness.acks()).toEqual([]);
  });

  it('does not ack again on a retry of the brain (one ack per start)', () => {
    const harness = start();
    harness.send(request('r1'));
    harness.clock.increment(1_000);
    expect(harness.calls).toHaveLength(2);
    expect(harness.acks()).toEqual(['r1']);
  });

  it('runs a redelivered id once: a queued copy is dropped, a started or finished one is acked again at once', async () => {
    const harness = start();
    harness.send(request('r1'));
    harness.send(request('r2'));
    harness.send(request('r2')); // still queued: dropped, its ack comes when it starts
    harness.send(request('r1')); // running: acked again, not run again
    expect(harness.acks()).toEqual(['r1', 'r1']);
    harness.activeCall()!.resolve('one');
    await flush();
    harness.activeCall()!.resolve('two');
    await flush();
    harness.send(request('r2')); // done: acked again, no second report
    harness.send(request('r1', false)); // done, no ack asked: nothing at all
    await flush();
    expect(harness.acks()).toEqual(['r1', 'r1', 'r2', 'r2']);
    expect(harness.calls.map((c) => c.input.requestId)).toEqual(['r1', 'r2']);
    expect(statuses(harness)).toEqual([
      ['r1', 'completed'],
      ['r2', 'completed'],
    ]);
  });

  it('remembers failed requests as done too', async () => {
    const harness = start();
    harness.send(request('r1'));
    harness.activeCall()!.reject(new Error('boom'));
    await flush();
    harness.activeCall()!.reject(new Error('boom again'));
    await flush();
    harness.send(request('r1'));
    expect(statuses(harness)).toEqual([['r1', 'failed']]);
    expect(harness.calls).toHaveLength(2);
    expect(harness.acks()).toEqual(['r1', 'r1']);
  });

  it('runs a cancelled id again when it comes back (a revoked delivery sent again)', async () => {
    const harness = start();
    harness.send(request('r1'));
    harness.send({ type: 'agent.cancel', requestId: 'r1' });
    harness.send(request('r1'));
    expect(harness.calls.map((c) => c.input.requestId)).toEqual(['r1', 'r1']);
    expect(statuses(harness)).toEqual([['r1', 'cancelled']]);
  });

  it('forgets the oldest done ids beyond doneMemory', async () => {
    const harness = start({ doneMemory: 2 });
    for (const id of ['r1', 'r2', 'r3']) {
      harness.send(request(id));
      harness.activeCall()!.resolve(id);
      await flush();
    }
    harness.send(request('r2'));
    expect(harness.calls).toHaveLength(3);
    harness.send(request('r1'));
    expect(harness.calls.map((c) => c.input.requestId)).toEqual(['r1', 'r2', 'r3', 'r1']);
  });
});

describe('agent back-pressure', () => {
  it('answers throttled at once beyond maxQueued, without queueing or acking, and takes work again once there is room', async () => {
    const harness = start({ maxQueued: 2, retryAfterMs: 250 });
    for (const id of ['r1', 'r2', 'r3', 'r4']) harness.send(request(id));
    expect(harness.reports.map(({ report }) => AgentReportSchema.parse(report))).toEqual([
      {
        type: 'agent.report',
        agent: 'backend',
        requestId: 'r4',
        attempts: 0,
        outcome: { status: 'throttled', retryAfterMs: 250 },
      },
    ]);
    expect(harness.parent.getSnapshot().children.agent!.getSnapshot().context.queue).toHaveLength(2);
    expect(harness.acks()).toEqual(['r1']);
    harness.activeCall()!.resolve('one');
    await flush();
    harness.send(request('r4'));
    for (const id of ['r2', 'r3', 'r4']) {
      expect(harness.activeCall()!.input.requestId).toBe(id);
      harness.activeCall()!.resolve(id);
      await flush();
    }
    expect(harness.acks()).toEqual(['r1', 'r2', 'r3', 'r4']);
    expect(statuses(harness).filter(([, status]) => status === 'throttled')).toHaveLength(1);
  });

  it('takes a request at once when idle, even with no room to queue (maxQueued 0)', () => {
    const harness = start({ maxQueued: 0 });
    harness.send(request('r1'));
    harness.send(request('r2'));
    expect(harness.calls.map((c) => c.input.requestId)).toEqual(['r1']);
    expect(statuses(harness)).toEqual([['r2', 'throttled']]);
  });

  it('queues 64 by default', () => {
    const harness = start();
    for (let i = 0; i <= 65; i++) harness.send(request(`r${i}`, false));
    expect(statuses(harness)).toEqual([['r65', 'throttled']]);
  });
});
