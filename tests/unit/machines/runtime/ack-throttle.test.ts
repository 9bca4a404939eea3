import { describe, expect, it } from 'vitest';
import { startAckHarness } from '../../../support/ack-harness.ts';
import type { SenderSendEvent } from '../../../support/retrying-sender.ts';
import { envelope } from '../../../support/test-system.ts';

/*
 * Back-pressure of plain sends (no ack asked, not a request): a receiver at its limit reports
 * `throttled`, and the supervisor tells the envelope's sender, who backs off with
 * `retryDelayAfterRefusal` (sender-retry.ts) inside its deadline. Every timer on a simulated clock.
 */

const note = (text: string) => envelope({ payload: { text } });

describe('supervisor back-pressure of plain sends', () => {
  it('tells the sender of a throttled plain send: throttled, with retryAfterMs and the requestId', async () => {
    const h = startAckHarness({ agentInput: { maxQueued: 0, retryAfterMs: 700 } });
    const first = note('keeps B busy');
    const second = note('finds B full');
    h.sendAsA({ type: 'supervisor.send', envelope: first });
    h.sendAsA({ type: 'supervisor.send', envelope: second });
    await h.flush();
    expect(h.rejectedOfA()).toEqual([
      {
        type: 'supervisor.rejected',
        error: {
          code: 'throttled',
          message: `B is too busy to take message ${second.message_id}; send it again in 700 ms at the earliest (a new message id).`,
          retryAfterMs: 700,
        },
        requestId: second.message_id,
      },
    ]);
    // The report still reaches observers, as every report does.
    const reports = h.emitted.flatMap((e) => (e.type === 'supervisor.report' ? [e.report] : []));
    expect(reports.map((r) => [r.requestId, r.outcome.status])).toEqual([[second.message_id, 'throttled']]);
  });

  it('tells each sender of a broadcast once per receiver that was full, and forgets the senders at the reports', async () => {
    const h = startAckHarness({ agentInput: { maxQueued: 0, retryAfterMs: 300 }, tracked: false });
    h.sendAsA({ type: 'supervisor.send', envelope: note('busy') });
    const news = envelope({ data_type: 'news', payload: { text: 'release' } });
    h.sendAsA({ type: 'supervisor.publish', topic: 'news', envelope: news });
    await h.flush();
    // B was busy (throttled), C was idle (started on it).
    expect(h.rejectedOfA().map((r) => [r.error.code, r.requestId])).toEqual([['throttled', news.message_id]]);
    const senders = () => h.actor.getSnapshot().context.senders;
    expect(senders().size).toBe(2); // the busy note, and the news C still works on
    for (const call of h.calls) call.resolve('done');
    await h.flush();
    expect(senders().size).toBe(0);
  });

  it('lets a sending agent back off with retryDelayAfterRefusal and send again, as a new id, once the wait is over', async () => {
    const h = startAckHarness({ agentInput: { maxQueued: 0, retryAfterMs: 500 }, retryingSender: true });
    const send = (envelope: SenderSendEvent['envelope'], deadline: number) =>
      h.child('A').send({ type: 'sender.send', envelope, deadline } satisfies SenderSendEvent);
    const busy = note('busy');
    const full = note('full');
    send(busy, 60_000);
    send(full, 60_000);
    await h.flush();
    expect(h.calls.map((c) => c.requestId)).toEqual([busy.message_id]);
    h.calls[0]!.resolve('done');
    h.clock.increment(499); // the receiver asked for 500 ms, more than the first backoff (100 ms)
    await h.flush();
    expect(h.calls).toHaveLength(1);
    h.clock.increment(1);
    await h.flush();
    const sent = h.child('A').getSnapshot().context.sent as (typeof full)[];
    expect(sent).toHaveLength(3);
    const retry = sent[2]!;
    expect(retry.message_id).not.toBe(full.message_id);
    expect({ ...retry, message_id: full.message_id }).toEqual(full);
    expect(h.calls.map((c) => c.requestId)).toEqual([busy.message_id, retry.message_id]);
    expect(h.child('A').getSnapshot().context.gaveUp).toEqual([]);
  });

  it('lets a sending agent give up when the retry could not start before its deadline', async () => {
    const h = startAckHarness({ agentInput: { maxQueued: 0, retryAfterMs: 500 }, retryingSender: true });
    const full = note('full');
    h.child('A').send({ type: 'sender.send', envelope: note('busy'), deadline: 60_000 });
    h.child('A').send({ type: 'sender.send', envelope: full, deadline: 500 });
    await h.flush();
    h.calls[0]!.resolve('done');
    h.clock.increment(10_000);
    await h.flush();
    expect(h.child('A').getSnapshot().context.gaveUp).toEqual([full.message_id]);
    expect(h.child('A').getSnapshot().context.sent).toHaveLength(2);
    expect(h.calls).toHaveLength(1);
  });

  it('remembers no sender for a request (its requester is known by the open request)', async () => {
    const h = startAckHarness({ tracked: false });
    h.sendAsA({ type: 'supervisor.request', envelope: envelope({ data_type: 'question' }) });
    await h.flush();
    expect(h.calls).toHaveLength(1); // B works on it, no report yet
    expect(h.actor.getSnapshot().context.senders.size).toBe(0);
  });
});
