import { describe, expect, it } from 'vitest';
import { derivedUuid } from '../../../../actors/runtime/derived-id.ts';
import { AckRecordSchema } from '../../../../protocol/runtime/ack-record.ts';
import { deadLetterOf, startAckHarness, stopAgent } from '../../../support/ack-harness.ts';
import { envelope } from '../../../support/test-system.ts';

/* Acknowledged delivery through the supervisor (supervisor-acks.ts), every timer on a simulated clock. */

const question = () => envelope({ data_type: 'question', payload: { text: 'ready?' } });
const requestsTo = (h: ReturnType<typeof startAckHarness>, id: string) =>
  h.calls.filter((c) => c.requestId === id && c.attempt === 1).length;

describe('supervisor acknowledged delivery', () => {
  it('journals the deadline beside the envelope and the ack when the receiver starts on it; nothing is redelivered', async () => {
    const h = startAckHarness();
    const q = question();
    h.clock.increment(5);
    h.sendAsA({ type: 'supervisor.send', envelope: q });
    await h.flush();
    expect(requestsTo(h, q.message_id)).toBe(1);
    const records = (await h.journal.read('run-1')).map((e) => e.data);
    expect(records.map((r) => r.kind)).toEqual(['direct', 'ack.armed', 'ack.acked']);
    expect(records.slice(1).map((r) => AckRecordSchema.parse(r))).toEqual([
      { kind: 'ack.armed', message_id: q.message_id, receiver: 'B', attempt: 1, due_at: 1_005 },
      { kind: 'ack.acked', message_id: q.message_id, receiver: 'B', attempt: 1 },
    ]);
    h.clock.increment(60_000);
    await h.flush();
    expect(requestsTo(h, q.message_id)).toBe(1);
    expect(h.emitted.filter((e) => e.type === 'supervisor.undeliverable')).toEqual([]);
  });

  it('asks no ack and journals no ack record for an envelope its policy does not cover', async () => {
    const h = startAckHarness();
    h.sendAsA({ type: 'supervisor.send', envelope: envelope() });
    await h.flush();
    expect(h.calls).toHaveLength(1);
    expect(await h.ackTrail()).toEqual([]);
    expect(h.child('B').getSnapshot().context.done).toEqual([]);
  });

  it('redelivers the same id after a missed ack and backoff; a busy receiver acks once it starts, and runs it once', async () => {
    const h = startAckHarness();
    h.sendAsA({ type: 'supervisor.send', envelope: envelope() }); // keeps B busy
    const q = question();
    h.sendAsA({ type: 'supervisor.send', envelope: q });
    await h.flush();
    h.clock.increment(1_000); // deadline: backoff 100 ms
    await h.flush();
    expect((await h.ackTrail()).map((r) => r.kind)).toEqual(['ack.armed']);
    h.clock.increment(99);
    await h.flush();
    expect((await h.ackTrail()).map((r) => r.kind)).toEqual(['ack.armed']);
    h.clock.increment(1);
    await h.flush();
    expect(await h.ackTrail()).toEqual([
      { kind: 'ack.armed', message_id: q.message_id, receiver: 'B', attempt: 1, due_at: 1_000 },
      { kind: 'ack.armed', message_id: q.message_id, receiver: 'B', attempt: 2, due_at: 2_100 },
    ]);
    h.calls[0]!.resolve('first done');
    await h.flush();
    expect((await h.ackTrail()).at(-1)).toEqual({
      kind: 'ack.acked',
      message_id: q.message_id,
      receiver: 'B',
      attempt: 2,
    });
    expect(requestsTo(h, q.message_id)).toBe(1);
    h.clock.increment(60_000);
    await h.flush();
    expect(requestsTo(h, q.message_id)).toBe(1);
    expect(h.rejectedOfA()).toEqual([]);
  });

  it('after the last retry reports undeliverable: journaled, emitted, told to the sender, dead letter routed and journaled', async () => {
    const h = startAckHarness();
    stopAgent(h.child('B')); // silenced: a stopped agent never acks
    const q = question();
    h.sendAsA({ type: 'supervisor.send', envelope: q });
    await h.flush();
    for (let i = 0; i < 40; i++) {
      h.clock.increment(100);
      await h.flush();
    }
    const trail = await h.ackTrail();
    expect(trail).toEqual([
      { kind: 'ack.armed', message_id: q.message_id, receiver: 'B', attempt: 1, due_at: 1_000 },
      { kind: 'ack.armed', message_id: q.message_id, receiver: 'B', attempt: 2, due_at: 2_100 },
      { kind: 'ack.armed', message_id: q.message_id, receiver: 'B', attempt: 3, due_at: 3_300 },
      { kind: 'ack.undeliverable', message_id: q.message_id, receiver: 'B', attempts: 3 },
    ]);
    expect(h.emitted.filter((e) => e.type === 'supervisor.undeliverable')).toEqual([
      { type: 'supervisor.undeliverable', receiver: 'B', attempts: 3, partition: 'run-1', envelope: q },
    ]);
    expect(h.rejectedOfA().map((r) => r.error.code)).toEqual(['undeliverable']);
    const outbound = h.emitted.flatMap((e) => (e.type === 'supervisor.outbound' ? [e.record.envelope] : []));
    expect(outbound).toHaveLength(1);
    // Its id is derived from the original's and the receiver's: a replayed give-up is a duplicate.
    expect(outbound[0]).toEqual(deadLetterOf(q, 'B', 3, derivedUuid('dead-letter', q.message_id, 'B')));
    h.sendAsA({ type: 'supervisor.send', envelope: outbound[0] });
    await h.flush();
    expect(h.rejectedOfA().map((r) => r.error.code)).toEqual(['undeliverable', 'duplicate_message']);
    const kinds = (await h.journal.read('run-1')).map((e) => e.data.kind);
    expect(kinds.at(-1)).toBe('direct');
  });

  it('does not redeliver an envelope past its expiry (one already redelivered included): announced expired, tracked no more, not dead-lettered', async () => {
    const h = startAckHarness();
    stopAgent(h.child('B'));
    // Deadline 1 000 ms, backoff 100 ms: the redelivery comes due at 1 100.
    const late = question();
    late.expires_at = 1_100;
    const timely = question();
    timely.expires_at = 1_101;
    h.sendAsA({ type: 'supervisor.send', envelope: late });
    h.sendAsA({ type: 'supervisor.send', envelope: timely });
    await h.flush();
    for (let i = 0; i < 40; i++) {
      h.clock.increment(100);
      await h.flush();
    }
    const trail = await h.ackTrail();
    // Its tracking is closed in the journal (`ack.expired`, naming the redelivery not made).
    expect(trail.filter((r) => r.message_id === late.message_id)).toEqual([
      { kind: 'ack.armed', message_id: late.message_id, receiver: 'B', attempt: 1, due_at: 1_000 },
      { kind: 'ack.expired', message_id: late.message_id, receiver: 'B', attempt: 2 },
    ]);
    // Redelivered once at 1 100; its next redelivery (2 300) is past its expiry too.
    expect(trail.filter((r) => r.message_id === timely.message_id)).toEqual([
      { kind: 'ack.armed', message_id: timely.message_id, receiver: 'B', attempt: 1, due_at: 1_000 },
      { kind: 'ack.armed', message_id: timely.message_id, receiver: 'B', attempt: 2, due_at: 2_100 },
      { kind: 'ack.expired', message_id: timely.message_id, receiver: 'B', attempt: 3 },
    ]);
    const expired = h.emitted.filter((e) => e.type === 'supervisor.expired');
    expect(expired).toEqual(
      [late, timely].map((envelope) => ({
        type: 'supervisor.expired',
        partition: 'run-1',
        record: { kind: 'direct', envelope },
        at: 'delivery',
      })),
    );
    expect(h.emitted.filter((e) => e.type === 'supervisor.undeliverable')).toEqual([]);
    expect(h.rejectedOfA()).toEqual([]);
    expect(h.actor.getSnapshot().context.acks?.ledger.size).toBe(0);
  });

  it('tracks each receiver of a broadcast on its own: one acks, the silent one is dead-lettered', async () => {
    const h = startAckHarness();
    stopAgent(h.child('C'));
    const news = envelope({ to_agent: 'B', data_type: 'news', payload: { text: 'release' } });
    h.sendAsA({ type: 'supervisor.publish', topic: 'news', envelope: news });
    await h.flush();
    for (let i = 0; i < 40; i++) {
      h.clock.increment(100);
      await h.flush();
    }
    const ends = (await h.ackTrail()).filter((r) => r.kind !== 'ack.armed').map((r) => [r.kind, r.receiver]);
    expect(ends).toEqual([
      ['ack.acked', 'B'],
      ['ack.undeliverable', 'C'],
    ]);
    expect(requestsTo(h, news.message_id)).toBe(1);
  });

  it('redelivers a throttled envelope after the receiver’s retryAfterMs, without telling the sender', async () => {
    const h = startAckHarness({ agentInput: { maxQueued: 0, retryAfterMs: 500 } });
    h.sendAsA({ type: 'supervisor.send', envelope: envelope() }); // B busy, room for nothing
    const q = question();
    h.sendAsA({ type: 'supervisor.send', envelope: q });
    await h.flush();
    // The ack ledger takes the throttled envelope over: no report yet, one report later.
    const reportsOf = (id: string) =>
      h.emitted.flatMap((e) => (e.type === 'supervisor.report' && e.report.requestId === id ? [e.report] : []));
    expect(reportsOf(q.message_id)).toEqual([]);
    h.calls[0]!.resolve('done');
    h.clock.increment(499);
    await h.flush();
    expect(requestsTo(h, q.message_id)).toBe(0);
    h.clock.increment(1);
    await h.flush();
    expect(requestsTo(h, q.message_id)).toBe(1);
    expect((await h.ackTrail()).map((r) => [r.kind, r.kind === 'ack.armed' ? r.attempt : undefined])).toEqual([
      ['ack.armed', 1],
      ['ack.armed', 2],
      ['ack.acked', undefined],
    ]);
    expect(h.rejectedOfA()).toEqual([]);
    h.calls.find((c) => c.requestId === q.message_id)!.resolve('answered');
    await h.flush();
    expect(reportsOf(q.message_id).map((r) => r.outcome.status)).toEqual(['completed']);
  });

  it('tells the requester of an untracked request that the receiver is throttled, with its retryAfterMs', async () => {
    const h = startAckHarness({ agentInput: { maxQueued: 0, retryAfterMs: 700 }, tracked: false });
    h.sendAsA({ type: 'supervisor.send', envelope: envelope() });
    h.sendAsA({ type: 'supervisor.request', envelope: question() });
    await h.flush();
    expect(h.rejectedOfA().map((r) => [r.error.code, r.error.retryAfterMs])).toEqual([['throttled', 700]]);
    expect(h.rejectedOfA()[0]!.error.message).toMatch(/^B is too busy to take request /);
  });

  it('closes an untracked request when its requester hears throttled: the refusal names it by requestId, and no request_timeout follows', async () => {
    const h = startAckHarness({ agentInput: { maxQueued: 0, retryAfterMs: 700 }, tracked: false });
    h.sendAsA({ type: 'supervisor.send', envelope: envelope() });
    const q = question();
    h.sendAsA({ type: 'supervisor.request', envelope: q });
    await h.flush();
    h.clock.increment(60_000);
    await h.flush();
    const refusals = h.rejectedOfA() as unknown as {
      error: { code: string };
      requestId?: string;
      envelope?: unknown;
    }[];
    expect(refusals.map((r) => [r.error.code, r.requestId, r.envelope])).toEqual([
      ['throttled', q.message_id, undefined],
    ]);
    expect(h.emitted.filter((e) => e.type === 'supervisor.rejected' && e.error.code === 'request_timeout')).toEqual([]);
  });

  it('re-arms pending acks from the journal after a restart, at their journaled deadlines, and skips settled ones', async () => {
    const first = startAckHarness();
    stopAgent(first.child('B'));
    const pending = question();
    const settled = question();
    first.sendAsA({ type: 'supervisor.send', envelope: pending });
    await first.flush();
    first.actor.stop();
    const records = (await first.journal.read('run-1')).map((e) => e.data);
    // As if `settled` had been acked before the crash.
    records.push(
      { kind: 'direct', envelope: settled },
      { kind: 'ack.armed', message_id: settled.message_id, receiver: 'B', attempt: 1, due_at: 1_000 },
      { kind: 'ack.acked', message_id: settled.message_id, receiver: 'B', attempt: 1 },
    );
    const second = startAckHarness({ journaled: records });
    second.clock.increment(999);
    await second.flush();
    expect(second.calls).toEqual([]);
    second.clock.increment(101); // deadline 1 000, then backoff 100
    await second.flush();
    expect(second.calls.map((c) => c.requestId)).toEqual([pending.message_id]);
    expect(await second.ackTrail()).toEqual([
      { kind: 'ack.armed', message_id: pending.message_id, receiver: 'B', attempt: 2, due_at: 2_100 },
      { kind: 'ack.acked', message_id: pending.message_id, receiver: 'B', attempt: 2 },
    ]);
  });
});
