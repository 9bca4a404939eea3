import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DueQueue } from '../../../actors/runtime/due-queue.ts';

const op = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), key: fc.nat(30), at: fc.integer({ min: 0, max: 200 }) }),
  fc.record({ kind: fc.constant('delete' as const), key: fc.nat(30) }),
  fc.record({ kind: fc.constant('take' as const), now: fc.integer({ min: 0, max: 200 }) }),
);

describe('DueQueue (random sets, moves, deletes and takes)', () => {
  it('answers as a scan of every key would: the earliest time, and the keys due in time order (ties: the earlier set first)', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const queue = new DueQueue<number>();
        // The model: each key's time and the order of its last set.
        const model = new Map<number, { at: number; seq: number }>();
        let seq = 0;
        for (const step of ops) {
          if (step.kind === 'set') {
            queue.set(step.key, step.at);
            model.set(step.key, { at: step.at, seq: ++seq });
          } else if (step.kind === 'delete') {
            expect(queue.delete(step.key)).toBe(model.delete(step.key));
          } else {
            const due = [...model]
              .filter(([, slot]) => slot.at <= step.now)
              .sort(([, a], [, b]) => a.at - b.at || a.seq - b.seq)
              .map(([key]) => key);
            for (const key of due) model.delete(key);
            expect(queue.take(step.now)).toEqual(due);
          }
          expect(queue.size).toBe(model.size);
          const times = [...model.values()].map((slot) => slot.at);
          expect(queue.nextAt()).toBe(times.length === 0 ? undefined : Math.min(...times));
        }
      }),
      { numRuns: 400 },
    );
  });
});
