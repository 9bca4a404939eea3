import { afterEach, describe, expect, it, vi } from 'vitest';
import { setSystemNow, systemNow } from '../../../../machines/runtime/system-now.ts';

describe('systemNow', () => {
  afterEach(() => vi.useRealTimers());

  it('answers the clock its host set for that system, and only for it', () => {
    vi.useFakeTimers({ now: 1_000 });
    const hosted = {};
    let at = 42;
    setSystemNow(hosted, () => at);
    expect(systemNow(hosted)).toBe(42);
    at = 43;
    expect(systemNow(hosted)).toBe(43);
    expect(systemNow({})).toBe(1_000);
  });

  it('answers the wall clock for a system no host set, also at time 0 of a set clock', () => {
    vi.useFakeTimers({ now: 5_000 });
    const atEpoch = {};
    setSystemNow(atEpoch, () => 0);
    expect(systemNow(atEpoch)).toBe(0);
    expect(systemNow({})).toBe(5_000);
  });
});
