import { describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../../../protocol/runtime/ack-record.ts';
import { journalOf } from '../../../../server/run-host/run-recovery.ts';
import { envelope, testSystem } from '../../../support/test-system.ts';

describe('journalOf', () => {
  it('hands recovery the routed envelopes and their ids, skipping ack records, and keeps every record for the acks', () => {
    const a = envelope();
    const b = envelope();
    const records: JournalRecord[] = [
      { kind: 'direct', envelope: a },
      { kind: 'ack.armed', message_id: a.message_id, receiver: 'B', attempt: 1, due_at: 1_000 },
      { kind: 'ack.acked', message_id: a.message_id, receiver: 'B', attempt: 1 },
      { kind: 'request', envelope: b, correlation_id: b.message_id },
      { kind: 'ack.undeliverable', message_id: b.message_id, receiver: 'B', attempts: 3 },
    ];
    const {
      routed,
      journaledIds,
      records: all,
    } = journalOf(
      testSystem(),
      records.map((data, i) => ({ seq: i + 1, data })),
    );
    expect(routed.map((e) => e.seq)).toEqual([1, 4]);
    expect(journaledIds).toEqual([a.message_id, b.message_id]);
    expect(all).toEqual(records);
  });
});
