import { BoundedCache, type BoundedCacheOptions } from './bounded-cache.ts';

/**
 * Documents read recently, kept in memory in front of the store (bounded, see
 * {@link BoundedCache}); every write goes through `write`, so what memory holds is what the
 * store holds. A read that overlapped a write of any key is returned but not kept, so a slow read
 * can never put an older document back over a newer one.
 *
 * @example
 * const docs = new ReadThroughCache<Session>({ maxEntries: 1000, idleMs: 600_000 });
 * const session = await docs.get(id, () => collection.get(id));
 * await docs.write(id, () => collection.update(id, change));
 */
export class ReadThroughCache<V> {
  readonly #values: BoundedCache<string, V>;
  /** Bumped as each write starts. */
  #writes = 0;

  constructor(options: BoundedCacheOptions) {
    this.#values = new BoundedCache(options);
  }

  /** The value held, else `read()`'s (kept unless undefined or a write overlapped it). */
  async get(key: string, read: () => Promise<V | undefined>): Promise<V | undefined> {
    const held = this.#values.get(key);
    if (held !== undefined) return held;
    const writes = this.#writes;
    const value = await read();
    if (value !== undefined && writes === this.#writes) this.#values.set(key, value);
    return value;
  }

  /** The value held for `key`, if any (a use of it), without reading. */
  held(key: string): V | undefined {
    return this.#values.get(key);
  }

  /**
   * Holds `value` for `key` without writing it: what readers see until the next write of `key`
   * (or until memory drops it, when they see the store's again). For state that need not
   * survive a restart.
   */
  hold(key: string, value: V): void {
    this.#values.set(key, value);
  }

  /** Runs a write of `key`; what it resolves with is held from then on (undefined: nothing is). */
  async write(key: string, work: () => Promise<V | undefined>): Promise<V | undefined> {
    this.#writes += 1;
    this.#values.delete(key);
    const value = await work();
    if (value === undefined) this.#values.delete(key);
    else this.#values.set(key, value);
    return value;
  }
}
