import { describe, expect, it } from 'vitest';
import { JournalOutbox } from '../../../../actors/runtime/journal-outbox.ts';
import type { RoutedRecord } from '../../../../protocol/runtime/routing.ts';

const record = (id: string): RoutedRecord => ({
  kind: 'direct',
  envelope: { message_id: id, from_agent: 'A', to_agent: 'B', data_type: 'note', payload: {} },
});

describe('JournalOutbox', () => {
  it('groups records by partition, each in the order added, with their tickets', () => {
    const outbox = new JournalOutbox();
    outbox.add(1, 'p', record('a'));
    outbox.add(2, 'q', record('b'));
    outbox.add(3, 'p', record('c'));
    expect([...outbox.partitions]).toEqual([
      ['p', { tickets: [1, 3], records: [record('a'), record('c')] }],
      ['q', { tickets: [2], records: [record('b')] }],
    ]);
    expect(outbox.wantsAck).toBe(false);
  });

  it('asks for an ack with nothing to write', () => {
    const outbox = new JournalOutbox();
    outbox.requestAck();
    expect(outbox.wantsAck).toBe(true);
    expect(outbox.partitions.size).toBe(0);
  });

  it('is closed once taken: adding to it or asking it for an ack throws', () => {
    const outbox = new JournalOutbox();
    expect(outbox.taken).toBe(false);
    outbox.add(1, 'p', record('a'));
    expect(outbox.take()).toBe(outbox);
    expect(outbox.taken).toBe(true);
    expect(() => outbox.add(2, 'p', record('b'))).toThrow(/taken by the writer; add to a new one/);
    expect(() => outbox.requestAck()).toThrow(/taken by the writer/);
    expect(outbox.partitions.get('p')?.tickets).toEqual([1]);
    expect(outbox.wantsAck).toBe(false);
  });
});
