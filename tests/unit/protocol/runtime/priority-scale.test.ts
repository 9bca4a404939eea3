import { describe, expect, it } from 'vitest';
import {
  PRIORITY_RANGE_1_TO_10,
  priorityMapper,
  RUNTIME_PRIORITY_RANGE,
} from '../../../../protocol/runtime/priority-scale.ts';

describe('priorityMapper', () => {
  it("maps spec 003's 1-10 onto 0..4 two by two, lower more urgent", () => {
    const map = priorityMapper(PRIORITY_RANGE_1_TO_10);
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(map)).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4, 4]);
  });

  it("keeps spec 002's 0..4 as it is", () => {
    const map = priorityMapper(RUNTIME_PRIORITY_RANGE);
    expect([0, 1, 2, 3, 4].map(map)).toEqual([0, 1, 2, 3, 4]);
  });

  it('clamps numbers out of the range and reads anything else as no priority', () => {
    const map = priorityMapper(PRIORITY_RANGE_1_TO_10);
    expect(map(0)).toBe(0);
    expect(map(-5)).toBe(0);
    expect(map(11)).toBe(4);
    expect(map('1')).toBeUndefined();
    expect(map(Number.NaN)).toBeUndefined();
    expect(map(undefined)).toBeUndefined();
  });

  it('maps labels as declared and an unknown label to no priority', () => {
    const map = priorityMapper({ labels: { critical: 0, high: 1, medium: 2, low: 3 } });
    expect(['critical', 'high', 'medium', 'low'].map(map)).toEqual([0, 1, 2, 3]);
    expect(map('urgent')).toBeUndefined();
    expect(map(0)).toBeUndefined();
  });

  it('refuses a range whose ends are not in order', () => {
    expect(() => priorityMapper({ range: [10, 1] })).toThrow('min < max');
    expect(() => priorityMapper({ range: [3, 3] })).toThrow('min < max');
  });
});
