import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PendingDeliveries, type PendingDelivery } from '../../../../machines/runtime/pending-deliveries.ts';

const delivery = (ticket: number, id = `m${ticket}`, extra: Partial<PendingDelivery> = {}): PendingDelivery => ({
  ticket,
  partition: 'p',
  record: {
    kind: 'direct',
    envelope: { message_id: id, from_agent: 'A', to_agent: 'B', data_type: 'note', payload: {} },
  },
  id,
  sender: 'A',
  targets: ['B'],
  ...extra,
});

describe('PendingDeliveries', () => {
  it('hands out the oldest settled deliveries in ticket order and stops at the first unsettled one', () => {
    const queue = new PendingDeliveries();
    for (let ticket = 1; ticket <= 4; ticket++) queue.add(delivery(ticket));
    queue.get(2)!.settled = { ok: true };
    expect(queue.takeSettled()).toEqual([]);
    queue.get(1)!.settled = { ok: false, message: 'disk full' };
    queue.get(4)!.settled = { ok: true };
    expect(queue.takeSettled().map((p) => p.ticket)).toEqual([1, 2]);
    expect(queue.size).toBe(2);
    expect(queue.get(1)).toBeUndefined();
    expect(queue.get(3)?.ticket).toBe(3);
    queue.get(3)!.settled = { ok: true };
    expect(queue.takeSettled().map((p) => p.ticket)).toEqual([3, 4]);
    expect(queue.size).toBe(0);
    expect(queue.get(5)).toBeUndefined();
  });

  it('refuses a ticket out of order', () => {
    const queue = new PendingDeliveries();
    queue.add(delivery(1));
    expect(() => queue.add(delivery(3))).toThrow(/Ticket 3 is out of order: the next one is 2/);
    expect(() => queue.add(delivery(1))).toThrow(/out of order/);
  });

  it('finds the append in flight of an id, not a redelivery or a settled one', () => {
    const queue = new PendingDeliveries();
    queue.add(delivery(1, 'x', { settled: { ok: false, message: 'disk full' } }));
    queue.add(delivery(2, 'x', { journaled: true }));
    queue.add(delivery(3, 'y'));
    queue.add(delivery(4, 'x'));
    expect(queue.appending('x')).toBe(4);
    expect(queue.appending('y')).toBe(3);
    expect(queue.appending('z')).toBeUndefined();
    queue.get(4)!.settled = { ok: true };
    expect(queue.appending('x')).toBeUndefined();
  });

  it('keeps every ticket where it was across compactions (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 900 }), { minLength: 1, maxLength: 12 }), (steps) => {
        const queue = new PendingDeliveries();
        let next = 1;
        let delivered = 0;
        for (const count of steps) {
          // Add `count` more, settle all but the newest, and take what is due.
          for (let n = 0; n < count; n++) queue.add(delivery(next++));
          for (let ticket = delivered + 1; ticket < next - 1; ticket++) queue.get(ticket)!.settled = { ok: true };
          const due = queue.takeSettled().map((p) => p.ticket);
          expect(due).toEqual(Array.from({ length: due.length }, (_, i) => delivered + 1 + i));
          delivered += due.length;
          expect(delivered).toBe(next - 2);
          expect(queue.size).toBe(1);
          expect(queue.get(next - 1)?.ticket).toBe(next - 1);
          expect(queue.get(delivered)).toBeUndefined();
          expect(queue.appending(`m${next - 1}`)).toBe(next - 1);
        }
      }),
      { numRuns: 200 },
    );
  });
});
