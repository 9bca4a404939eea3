import type { ServiceClock } from '../../actors/runtime/clock.ts';
import type { ResponseCache } from '../../machines/runtime/idempotent-handler.ts';

/**
 * A response cache in memory with TTLs on a clock, counting reads and writes; `refuse` makes the
 * next writes fail. It stands for shared state where a test needs no journal behind it.
 */
export function createMemoryResponseCache(clock: ServiceClock) {
  const entries = new Map<string, { value: unknown; expiresAt: number }>();
  const counts = { gets: 0, writes: 0 };
  const control = { refuse: false as boolean | 'throw' };
  const cache: ResponseCache = {
    async get(key) {
      counts.gets += 1;
      const entry = entries.get(key);
      if (!entry || entry.expiresAt <= clock.now()) return undefined;
      return { value: entry.value };
    },
    async write(_role, writes) {
      counts.writes += 1;
      if (control.refuse === 'throw') throw new Error('journal unavailable');
      if (control.refuse) return { ok: false };
      for (const write of writes) {
        if (write.value === undefined) entries.delete(write.key);
        else entries.set(write.key, { value: write.value, expiresAt: clock.now() + (write.ttlMs ?? Infinity) });
      }
      return { ok: true };
    },
  };
  return { cache, entries, counts, control };
}
