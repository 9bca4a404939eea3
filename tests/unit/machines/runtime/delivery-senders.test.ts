import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeliverySenders } from '../../../../machines/runtime/delivery-senders.ts';

describe('DeliverySenders', () => {
  it('answers the sender at each receiver’s report and forgets the id after the last one', () => {
    const senders = new DeliverySenders();
    senders.delivered('m1', 'A', 2);
    expect(senders.reported('m1')).toBe('A');
    expect(senders.size).toBe(1);
    expect(senders.reported('m1')).toBe('A');
    expect(senders.size).toBe(0);
    expect(senders.reported('m1')).toBeUndefined();
  });

  it('remembers nothing for a delivery to no receiver', () => {
    const senders = new DeliverySenders();
    senders.delivered('m1', 'A', 0);
    expect(senders.size).toBe(0);
    expect(senders.reported('m1')).toBeUndefined();
  });

  it('counts a redelivery of the same id as more receivers, keeping the first sender', () => {
    const senders = new DeliverySenders();
    senders.delivered('m1', 'A', 1);
    senders.delivered('m1', 'B', 1);
    expect([senders.reported('m1'), senders.reported('m1'), senders.reported('m1')]).toEqual(['A', 'A', undefined]);
  });

  it('forgets the oldest id past its limit', () => {
    const senders = new DeliverySenders(2);
    senders.delivered('m1', 'A', 1);
    senders.delivered('m2', 'B', 1);
    senders.delivered('m3', 'C', 1);
    expect(senders.size).toBe(2);
    expect([senders.reported('m1'), senders.reported('m2'), senders.reported('m3')]).toEqual([undefined, 'B', 'C']);
  });

  it('forgets the oldest open id past its limit, passing over ids already reported, across many deliveries', () => {
    const senders = new DeliverySenders(3);
    senders.delivered('m1', 'A', 1);
    expect(senders.reported('m1')).toBe('A');
    for (const id of ['m2', 'm3', 'm4']) senders.delivered(id, `from-${id}`, 1);
    // m1 again, from another sender: the first m1 is reported already, so m2 is the oldest open one.
    senders.delivered('m1', 'A2', 1);
    expect(senders.size).toBe(3);
    expect(senders.reported('m2')).toBeUndefined();
    expect([senders.reported('m1'), senders.reported('m3'), senders.reported('m4')]).toEqual([
      'A2',
      'from-m3',
      'from-m4',
    ]);
    // Many more than twice the limit, one at a time: the newest three are the ones remembered.
    for (let n = 5; n <= 30; n++) {
      senders.delivered(`m${n}`, `from-m${n}`, 1);
      expect(senders.size).toBe(Math.min(3, n - 4));
    }
    const answered = Array.from({ length: 30 }, (_, n) => senders.reported(`m${n + 1}`)).filter(Boolean);
    expect(answered).toEqual(['from-m28', 'from-m29', 'from-m30']);
  });

  it('never holds more than its limit, and answers each remembered receiver until it reported (property)', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('deliver' as const), id: fc.nat(20), receivers: fc.integer({ min: 0, max: 3 }) }),
      fc.record({ kind: fc.constant('report' as const), id: fc.nat(20) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(op, { maxLength: 200 }), (limit, ops) => {
        const senders = new DeliverySenders(limit);
        // The model: open receivers per id, in first-delivery order, oldest evicted past the limit.
        const model = new Map<number, { sender: string; open: number }>();
        for (const o of ops) {
          if (o.kind === 'deliver') {
            senders.delivered(String(o.id), `s${o.id}`, o.receivers);
            if (o.receivers === 0) continue;
            const known = model.get(o.id);
            if (known) known.open += o.receivers;
            else {
              if (model.size >= limit) model.delete(model.keys().next().value!);
              model.set(o.id, { sender: `s${o.id}`, open: o.receivers });
            }
          } else {
            const known = model.get(o.id);
            expect(senders.reported(String(o.id))).toBe(known?.sender);
            if (known && --known.open === 0) model.delete(o.id);
          }
          expect(senders.size).toBe(model.size);
          expect(senders.size).toBeLessThanOrEqual(limit);
        }
        // Which ids are remembered, not only how many: each answers its sender once per open receiver.
        for (const [id, { sender, open }] of model) {
          for (let n = 0; n < open; n++) expect(senders.reported(String(id))).toBe(sender);
          expect(senders.reported(String(id))).toBeUndefined();
        }
        expect(senders.size).toBe(0);
      }),
      { numRuns: 500 },
    );
  });
});
