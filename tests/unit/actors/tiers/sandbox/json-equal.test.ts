import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonEqual } from '../../../../../actors/tiers/sandbox/json-equal.ts';

/** Reference model: JSON text with every object's keys sorted. */
function canonical(value: unknown): string | undefined {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((key) => [key, sort((v as Record<string, unknown>)[key])]),
      );
    }
    return v;
  };
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.stringify(sort(JSON.parse(text)));
}

/** The same JSON value with every object's keys in reverse order. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([key, item]) => [key, reversedKeys(item)]),
    );
  }
  return value;
}

describe('jsonEqual', () => {
  it('agrees with comparing sorted-key JSON texts', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.jsonValue({ maxDepth: 3 }), (left, right) => {
        expect(jsonEqual(left, right)).toBe(canonical(left) === canonical(right));
      }),
      { numRuns: 300 },
    );
  });

  it('ignores key order and holds for a value against its own copy', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        expect(jsonEqual(value, reversedKeys(value))).toBe(true);
        expect(jsonEqual(value, structuredClone(value))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('sees values as JSON does', () => {
    expect(jsonEqual(-0, 0)).toBe(true);
    expect(jsonEqual(NaN, null)).toBe(true);
    expect(jsonEqual([Infinity], [null])).toBe(true);
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(jsonEqual(undefined, undefined)).toBe(true);
    expect(jsonEqual(undefined, null)).toBe(false);
    expect(jsonEqual([1, 2], { 0: 1, 1: 2 })).toBe(false);
    expect(jsonEqual(1, '1')).toBe(false);
    expect(jsonEqual(10n, 10n)).toBe(false);
  });
});
