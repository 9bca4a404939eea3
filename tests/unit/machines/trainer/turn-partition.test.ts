import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { turnPartitionAt } from '../../../../machines/trainer/turn-partition.ts';
import { encodeFileName } from '../../../../actors/runtime/safe-file-name.ts';

describe('turnPartitionAt', () => {
  it('names the UTC hour', () => {
    expect(turnPartitionAt(Date.parse('2026-11-24T08:41:07.123Z'))).toBe('turns-2026112408');
    expect(turnPartitionAt(Date.parse('2026-11-24T08:59:59.999Z'))).toBe('turns-2026112408');
    expect(turnPartitionAt(Date.parse('2026-11-24T09:00:00.000Z'))).toBe('turns-2026112409');
    expect(turnPartitionAt(Date.parse('2026-12-31T23:30:00Z'))).toBe('turns-2026123123');
  });

  it('is one partition per hour: equal within an hour, different across hours, and a plain file name', () => {
    const hour = 3_600_000;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_102_444_800_000 / hour - 2 }),
        fc.integer({ min: 0, max: hour - 1 }),
        fc.integer({ min: 1, max: 1000 }),
        (h, offset, later) => {
          const name = turnPartitionAt(h * hour + offset);
          expect(name).toBe(turnPartitionAt(h * hour));
          expect(turnPartitionAt((h + later) * hour + offset)).not.toBe(name);
          expect(encodeFileName(name)).toBe(name);
        },
      ),
      { numRuns: 200 },
    );
  });
});
