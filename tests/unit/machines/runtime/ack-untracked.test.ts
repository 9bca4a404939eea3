import { describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../../../protocol/runtime/ack-record.ts';
import { startAckHarness } from '../../../support/ack-harness.ts';
import { createGatedJournal } from '../../../support/gated-journal.ts';
import { envelope } from '../../../support/test-system.ts';

/*
 * Where acknowledged delivery does not apply: an envelope its policy does not cover, in a system
 * with acks, and every envelope of a system whose addressing declares none. Ack events reaching
 * such a supervisor change nothing. Simulated clock.
 */

describe('acknowledged delivery where it does not apply', () => {
  it('announces an untracked envelope that expired while its delivery waited for the disk, and journals no ack record', async () => {
    const journal = createGatedJournal<JournalRecord>();
    const h = startAckHarness({ journal });
    const note = envelope({ expires_at: 500 });
    h.sendAsA({ type: 'supervisor.send', envelope: note });
    await h.flush();
    expect(journal.waiting.flatMap((w) => w.data.map((r) => r.kind))).toEqual(['direct']);
    h.clock.increment(500);
    await journal.commit();
    await h.flush();
    expect(h.emitted).toEqual([
      { type: 'supervisor.expired', partition: 'run-1', record: { kind: 'direct', envelope: note }, at: 'delivery' },
    ]);
    expect(journal.waiting).toEqual([]);
    expect(h.calls).toEqual([]);
    expect(h.actor.getSnapshot().context.acks?.closing).toBe(0);
  });

  it('delivers and announces the untracked envelopes of one write together, as a system without acks does', async () => {
    const h = startAckHarness();
    const notes = [1, 2, 3].map((n) => envelope({ payload: { text: 'note', n } }));
    // One tick: one write, one journal ack for the three.
    for (const note of notes) h.actor.send({ type: 'supervisor.send', envelope: note });
    await h.flush();
    expect(h.emitted).toEqual([
      { type: 'supervisor.routed', partition: 'run-1', records: notes.map((e) => ({ kind: 'direct', envelope: e })) },
    ]);
    expect(h.calls.map((c) => c.requestId)).toEqual([notes[0]!.message_id]); // B runs one at a time
    expect(await h.ackTrail()).toEqual([]);
  });

  it('ignores acks and ack timer events in a system whose addressing declares no acks', async () => {
    const h = startAckHarness({ tracked: false });
    const q = envelope({ data_type: 'question' });
    h.sendAsA({ type: 'supervisor.send', envelope: q });
    await h.flush();
    h.sendAsA({ type: 'agent.ack', agent: 'B', requestId: q.message_id });
    h.actor.send({ type: 'supervisor.ack.due' });
    await h.flush();
    expect(h.actor.getSnapshot().status).toBe('active');
    expect(await h.ackTrail()).toEqual([]);
    // It routes on as before.
    const next = envelope();
    h.sendAsA({ type: 'supervisor.send', envelope: next });
    await h.flush();
    expect(h.calls.map((c) => c.requestId)).toEqual([q.message_id]);
    expect(h.emitted.flatMap((e) => (e.type === 'supervisor.routed' ? e.records.map((r) => r.envelope) : []))).toEqual([
      q,
      next,
    ]);
  });
});
