import { describe, expect, it } from 'vitest';
import { startAckHarness } from '../../../support/ack-harness.ts';
import { envelope } from '../../../support/test-system.ts';

/* A redelivery (`redeliver: true`) of an envelope that needs an ack, on the ack test system. */

describe('supervisor redelivery with acknowledged delivery', () => {
  it('journals neither the envelope nor its ack deadline a second time, and asks the receiver to ack again', async () => {
    const h = startAckHarness();
    const q = envelope({ data_type: 'question' });
    h.sendAsA({ type: 'supervisor.send', envelope: q });
    await h.flush();
    h.sendAsA({ type: 'supervisor.send', envelope: q, redeliver: true });
    await h.flush();
    const kinds = (await h.journal.read('run-1')).map((e) => e.data.kind);
    expect(kinds.filter((kind) => kind === 'direct')).toHaveLength(1);
    expect(await h.ackTrail()).toEqual([
      { kind: 'ack.armed', message_id: q.message_id, receiver: 'B', attempt: 1, due_at: 1_000 },
      { kind: 'ack.acked', message_id: q.message_id, receiver: 'B', attempt: 1 },
      { kind: 'ack.acked', message_id: q.message_id, receiver: 'B', attempt: 1 },
    ]);
    expect(h.rejectedOfA()).toEqual([]);
  });
});
