import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CoalescedWrites } from '../../../server/run-host/coalesced-writes.ts';

describe('CoalescedWrites properties', () => {
  it('never overlaps writes of a key, and leaves each key as the merge of all its changes in order', async () => {
    const change = fc.record({
      key: fc.constantFrom('a', 'b', 'c'),
      field: fc.constantFrom('x', 'y', 'z'),
      value: fc.integer(),
      pause: fc.nat(3),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(change, { maxLength: 40 }),
        fc.array(fc.nat(3), { maxLength: 40 }),
        async (changes, delays) => {
          const stored = new Map<string, Record<string, number>>();
          const active = new Set<string>();
          let overlapped = false;
          let n = 0;
          const writes = new CoalescedWrites<Record<string, number>>(async (key, merged) => {
            if (active.has(key)) overlapped = true;
            active.add(key);
            const turns = (delays[n++ % Math.max(delays.length, 1)] ?? 0) * 4;
            for (let i = 0; i < turns; i++) await Promise.resolve();
            stored.set(key, { ...stored.get(key), ...(merged as Record<string, number>) });
            active.delete(key);
          });
          const expected = new Map<string, Record<string, number>>();
          for (const { key, field, value, pause } of changes) {
            void writes.update(key, { [field]: value });
            expected.set(key, { ...expected.get(key), [field]: value });
            for (let i = 0; i < pause; i++) await Promise.resolve();
          }
          await writes.settled();
          expect(overlapped).toBe(false);
          expect(Object.fromEntries(stored)).toEqual(Object.fromEntries(expected));
        },
      ),
      { numRuns: 300 },
    );
  });
});
