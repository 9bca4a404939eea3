/** How retries space out: exponential from `baseMs`, capped at `maxMs`, with full jitter. */
export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
  /** Growth per attempt; default 2. */
  factor?: number;
  /**
   * Share of the delay drawn at random, 0..1 (default 0.5): the delay is uniform in
   * `[d * (1 - jitter), d]`, so retries of many senders spread out instead of arriving together.
   */
  jitter?: number;
}

/**
 * The delay before retry number `attempt` (1 for the first retry), given a random draw in [0, 1).
 * Pass a seeded `random` in tests for exact delays.
 *
 * @example
 * const delay = backoffDelay({ baseMs: 100, maxMs: 5_000 }, attempt, Math.random);
 */
export function backoffDelay(policy: BackoffPolicy, attempt: number, random: () => number = Math.random): number {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be 1 or more, got ${attempt}`);
  const factor = policy.factor ?? 2;
  const jitter = Math.min(1, Math.max(0, policy.jitter ?? 0.5));
  const ceiling = Math.min(policy.maxMs, policy.baseMs * factor ** (attempt - 1));
  return Math.round(ceiling * (1 - jitter * random()));
}
