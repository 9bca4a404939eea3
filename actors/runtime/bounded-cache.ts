/** How much a {@link BoundedCache} keeps. */
export interface BoundedCacheOptions {
  /** Entries kept at most; beyond, the least recently used go first. */
  maxEntries: number;
  /** An entry not used for this long is dropped (checked whenever the cache is used). */
  idleMs: number;
  /** Milliseconds now; `Date.now` by default (tests pass their own). */
  now?: () => number;
}

/**
 * A map for what can be read again from disk (a session's events, a user's documents): it
 * holds at most `maxEntries`, dropping the least recently used first, and drops entries idle
 * for `idleMs`, so its memory follows the active set, never the history. Every `get` and `set`
 * sweeps from the oldest end, so dropping costs O(1) amortized and needs no timer.
 *
 * @example
 * const sessions = new BoundedCache<string, SessionLog>({ maxEntries: 1000, idleMs: 600_000 });
 * const log = sessions.get(id) ?? sessions.set(id, await load(id));
 */
export class BoundedCache<K, V> {
  readonly #entries = new Map<K, { value: V; usedAt: number }>();
  readonly #maxEntries: number;
  readonly #idleMs: number;
  readonly #now: () => number;

  constructor(options: BoundedCacheOptions) {
    this.#maxEntries = Math.max(1, options.maxEntries);
    this.#idleMs = options.idleMs;
    this.#now = options.now ?? Date.now;
  }

  /** The value of `key`, now the most recently used; undefined when absent or dropped. */
  get(key: K): V | undefined {
    const now = this.#now();
    this.#sweep(now);
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    entry.usedAt = now;
    this.#entries.set(key, entry);
    return entry.value;
  }

  /** The value of `key` without counting as a use (nor sweeping). */
  peek(key: K): V | undefined {
    return this.#entries.get(key)?.value;
  }

  /** Keeps `value` under `key` as the most recently used, and returns it. */
  set(key: K, value: V): V {
    const now = this.#now();
    this.#entries.delete(key);
    this.#entries.set(key, { value, usedAt: now });
    this.#sweep(now);
    return value;
  }

  delete(key: K): boolean {
    return this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Drops from the least recently used end while over the bound or idle too long. */
  #sweep(now: number): void {
    for (const [key, entry] of this.#entries) {
      if (this.#entries.size <= this.#maxEntries && now - entry.usedAt <= this.#idleMs) return;
      this.#entries.delete(key);
    }
  }
}
