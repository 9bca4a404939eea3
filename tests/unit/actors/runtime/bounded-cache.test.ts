import { describe, expect, it } from 'vitest';
import { BoundedCache } from '../../../../actors/runtime/bounded-cache.ts';

describe('BoundedCache', () => {
  it('drops the least recently used beyond its bound', () => {
    const cache = new BoundedCache<string, number>({ maxEntries: 2, idleMs: 1000, now: () => 0 });
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1); // a is now the most recently used
    cache.set('c', 3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    expect(cache.size).toBe(2);
  });

  it('drops entries idle for longer than its limit, and keeps those used meanwhile', () => {
    let now = 0;
    const cache = new BoundedCache<string, number>({ maxEntries: 10, idleMs: 100, now: () => now });
    cache.set('a', 1);
    cache.set('b', 2);
    now = 60;
    expect(cache.get('b')).toBe(2);
    now = 130;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBe(2);
    now = 231;
    expect(cache.peek('b')).toBe(2); // peek neither uses nor sweeps
    cache.set('c', 3);
    expect(cache.size).toBe(1);
  });

  it('holds at most its bound whatever the order of uses (10,000 keys, bound 100)', () => {
    const cache = new BoundedCache<number, number>({ maxEntries: 100, idleMs: 1000, now: () => 0 });
    for (let i = 0; i < 10_000; i++) {
      cache.set(i, i);
      if (i % 7 === 0) cache.get(i >> 1);
    }
    expect(cache.size).toBe(100);
    expect(cache.get(9_999)).toBe(9_999);
  });
});
