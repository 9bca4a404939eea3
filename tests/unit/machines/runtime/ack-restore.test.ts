import { describe, expect, it } from 'vitest';
import { derivedUuid } from '../../../../actors/runtime/derived-id.ts';
import type { JournalRecord } from '../../../../protocol/runtime/ack-record.ts';
import { deadLetterOf, startAckHarness } from '../../../support/ack-harness.ts';
import { envelope } from '../../../support/test-system.ts';

/*
 * A restored run's acknowledged delivery, from journal records alone: what it re-arms, and which
 * give-ups it sends the dead letter of (only those whose dead letter the journal does not hold).
 * Simulated clock.
 */

const question = () => envelope({ data_type: 'question', payload: { text: 'ready?' } });

/** A give-up of `q` to B, as the journal holds it, with its dead letter journaled after it when `sent`. */
function gaveUp(q: ReturnType<typeof question>, sent: boolean): JournalRecord[] {
  const id = derivedUuid('dead-letter', q.message_id, 'B');
  return [
    { kind: 'direct', envelope: q },
    { kind: 'ack.armed', message_id: q.message_id, receiver: 'B', attempt: 3, due_at: 3_300 },
    { kind: 'ack.undeliverable', message_id: q.message_id, receiver: 'B', attempts: 3 },
    ...(sent ? [{ kind: 'direct' as const, envelope: deadLetterOf(q, 'B', 3, id) }] : []),
  ];
}

describe('acknowledged delivery restored from the journal', () => {
  it('sends nothing for give-ups whose dead letters the journal holds: no duplicate is even attempted', async () => {
    const first = question();
    const second = question();
    const h = startAckHarness({ journaled: [...gaveUp(first, true), ...gaveUp(second, true)] });
    h.clock.increment(60_000);
    await h.flush();
    expect(h.emitted).toEqual([]);
    expect(h.rejectedOfA()).toEqual([]);
    expect((await h.journal.read('run-1')).map((e) => e.data)).toEqual([]);
  });

  it('sends the dead letter of exactly those restored give-ups whose dead letter is missing', async () => {
    const sent = question();
    const missing = question();
    const h = startAckHarness({ journaled: [...gaveUp(sent, true), ...gaveUp(missing, false)] });
    h.clock.increment(0);
    await h.flush();
    const outbound = h.emitted.flatMap((e) => (e.type === 'supervisor.outbound' ? [e.record.envelope] : []));
    expect(outbound).toEqual([deadLetterOf(missing, 'B', 3, derivedUuid('dead-letter', missing.message_id, 'B'))]);
    expect(h.rejectedOfA()).toEqual([]);
  });

  it('does not re-arm a journaled envelope whose sender cannot be read', async () => {
    const readable = question();
    const { from_agent: _sender, ...senderless } = question();
    const h = startAckHarness({
      journaled: [
        { kind: 'direct', envelope: senderless },
        { kind: 'ack.armed', message_id: senderless.message_id, receiver: 'B', attempt: 1, due_at: 1_000 },
        { kind: 'direct', envelope: readable },
        { kind: 'ack.armed', message_id: readable.message_id, receiver: 'B', attempt: 1, due_at: 1_000 },
      ],
    });
    for (let i = 0; i < 20; i++) {
      h.clock.increment(100);
      await h.flush();
    }
    // Deadline 1 000, backoff 100: only the readable one is redelivered.
    expect(h.calls.map((c) => c.requestId)).toEqual([readable.message_id]);
    expect((await h.ackTrail()).map((r) => [r.kind, r.message_id])).toEqual([
      ['ack.armed', readable.message_id],
      ['ack.acked', readable.message_id],
    ]);
  });
});
