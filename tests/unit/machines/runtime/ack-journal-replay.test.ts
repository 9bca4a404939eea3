import { describe, expect, it } from 'vitest';
import { AckDelivery, type AckItem } from '../../../../machines/runtime/ack-delivery.ts';
import { ackJournalReplay, type ReadRoutedRecord } from '../../../../machines/runtime/ack-journal-replay.ts';
import type { JournalRecord } from '../../../../protocol/runtime/ack-record.ts';
import type { RoutedRecord } from '../../../../protocol/runtime/routing.ts';

const policy = { timeoutMs: 1_000, retries: 2 };
const routed = (id: string, needsAck = true): RoutedRecord => ({
  kind: 'direct',
  envelope: { message_id: id, from_agent: 'A', to_agent: 'B', data_type: needsAck ? 'question' : 'note' },
});
const itemOf = (record: RoutedRecord): AckItem => ({
  id: String(record.envelope['message_id']),
  partition: 'run-1',
  record,
  sender: 'A',
});
const read: ReadRoutedRecord = (record) => ({
  item: itemOf(record),
  policy: record.envelope['data_type'] === 'question' ? policy : undefined,
});
const armed = (id: string, receiver: string, attempt = 1, due_at = 1_000): JournalRecord => ({
  kind: 'ack.armed',
  message_id: id,
  receiver,
  attempt,
  due_at,
});

describe('ackJournalReplay', () => {
  it('leaves pending each pair whose last record is ack.armed, with its attempt and absolute deadline', () => {
    const records: JournalRecord[] = [
      routed('m1'),
      armed('m1', 'B'),
      armed('m1', 'C'),
      { kind: 'ack.acked', message_id: 'm1', receiver: 'C', attempt: 1 },
      armed('m1', 'B', 2, 2_100),
    ];
    const { pending, unannounced } = ackJournalReplay(records, read);
    expect(pending).toEqual([
      {
        messageId: 'm1',
        receiver: 'B',
        policy,
        attempts: 2,
        phase: 'awaitingAck',
        dueAt: 2_100,
        item: itemOf(records[0] as RoutedRecord),
      },
    ]);
    expect(unannounced).toEqual([]);
  });

  it('closes a pair by any of acked, undeliverable and expired, and reopens it by a later ack.armed', () => {
    const records: JournalRecord[] = [
      routed('m1'),
      armed('m1', 'B'),
      { kind: 'ack.expired', message_id: 'm1', receiver: 'B', attempt: 2 },
      armed('m1', 'C'),
      { kind: 'ack.undeliverable', message_id: 'm1', receiver: 'C', attempts: 3 },
      armed('m1', 'C', 4, 9_000),
    ];
    const { pending, unannounced } = ackJournalReplay(records, read, () => true);
    expect(pending.map((p) => [p.receiver, p.attempts])).toEqual([['C', 4]]);
    expect(unannounced).toEqual([]);
  });

  it('skips an envelope that needs no ack, one never routed, and keeps the first record of an id routed twice', () => {
    const first = routed('m3');
    const records: JournalRecord[] = [
      routed('m1', false),
      armed('m1', 'B'),
      armed('m2', 'B'),
      first,
      { ...routed('m3'), context: 'again' },
      armed('m3', 'B'),
    ];
    const { pending } = ackJournalReplay(records, read);
    expect(pending.map((p) => [p.messageId, p.item.record])).toEqual([['m3', first]]);
  });

  it('names a give-up unannounced only when `unsent` says its dead letter is not journaled', () => {
    const records: JournalRecord[] = [
      routed('m1'),
      routed('m2'),
      armed('m1', 'B'),
      armed('m2', 'B'),
      { kind: 'ack.undeliverable', message_id: 'm1', receiver: 'B', attempts: 3 },
      { kind: 'ack.undeliverable', message_id: 'm2', receiver: 'B', attempts: 3 },
      { kind: 'ack.undeliverable', message_id: 'm9', receiver: 'B', attempts: 3 },
    ];
    const unsent = (id: string) => id !== 'm2';
    const { pending, unannounced } = ackJournalReplay(records, read, unsent);
    expect(pending).toEqual([]);
    expect(unannounced).toEqual([{ receiver: 'B', attempts: 3, item: itemOf(records[0] as RoutedRecord) }]);
    expect(ackJournalReplay(records, read).unannounced).toEqual([]);
  });
});

describe('AckDelivery closing records', () => {
  const delivery = () => {
    const acks = new AckDelivery({ backoff: { baseMs: 100, maxMs: 1_000 }, random: () => 0 });
    const item = itemOf(routed('m1'));
    acks.delivered(item, 'B', { timeoutMs: 1_000, retries: 0 }, 0);
    return { acks, item };
  };

  it('gives each closing record its own negative ticket, apart from the supervisor’s delivery tickets', () => {
    const { acks, item } = delivery();
    acks.delivered({ ...item, id: 'm2' }, 'B', { timeoutMs: 1_000, retries: 0 }, 0);
    const effects = acks.due(1_000);
    expect(effects.map((e) => (e.type === 'journal' ? e.ticket : undefined))).toEqual([-1, -2]);
    expect(acks.closing).toBe(2);
    // A delivery's ticket (positive) announces nothing; each closing ticket announces once.
    expect(acks.settled([1, 2], [], 1_000)).toEqual([]);
    expect(acks.settled([-2], [], 1_000).map((e) => e.type === 'undeliverable' && e.item.id)).toEqual(['m2']);
    expect(acks.settled([-2, -1], [], 1_000).map((e) => e.type === 'undeliverable' && e.item.id)).toEqual(['m1']);
    expect(acks.closing).toBe(0);
  });

  it('tracks a pair again when its closing append failed, due after a backoff, and forgets the failed ticket', () => {
    const { acks } = delivery();
    acks.due(1_000);
    expect(acks.settled([], [{ ticket: -1 }], 1_000)).toEqual([]);
    expect(acks.closing).toBe(0);
    expect(acks.ledger.get('m1', 'B')).toMatchObject({ phase: 'awaitingAck', attempts: 1, dueAt: 1_100 });
    expect(acks.settled([-1], [], 1_000)).toEqual([]);
  });

  it('asks no throttle effect for a pair it does not track', () => {
    const { acks } = delivery();
    expect(acks.throttled('m9', 'B', 0, 100)).toEqual([]);
    expect(acks.acked('m9', 'B')).toEqual([]);
  });
});
