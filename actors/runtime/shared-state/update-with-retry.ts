import { backoffDelay, type BackoffPolicy } from '../backoff.ts';
import { SharedStateError } from './shared-state-error.ts';
import type { SharedState, StateEntry } from './shared-state.ts';

/** Options of `updateWithRetry`. */
export interface UpdateOptions {
  /** Tries in all, the first included (default 10). */
  attempts?: number;
  /** Pause before each retry, on the state's clock (default 2 ms doubling up to 200 ms, jittered). */
  backoff?: BackoffPolicy;
  /** Random draws for the jitter (default `Math.random`; pass a seeded one in tests). */
  random?: () => number;
  /** Sets the key's expiry to now + ttlMs at each write (otherwise the key keeps its expiry). */
  ttlMs?: number;
}

const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 2, maxMs: 200 };

/**
 * Spec 003's read-before-write: reads `key`, computes its next value with `update` (given the
 * live entry, or undefined when the key is absent), writes it with compare-and-set on the version
 * read, and on a conflict backs off (`backoffDelay`, on `state.clock`) and starts again from a
 * fresh read. `update` may run several times, so keep it free of side effects. Resolves with the
 * entry written; throws `SharedStateError` (`update_contended`) after `attempts` conflicts.
 *
 * @example
 * const entry = await updateWithRetry(state, 'RANKING', 'ranking/elo', (current) => ({
 *   ...(current?.value as Record<string, number>), h7: 1216,
 * }));
 */
export async function updateWithRetry<V>(
  state: SharedState,
  role: string,
  key: string,
  update: (current: StateEntry<V> | undefined) => V,
  options: UpdateOptions = {},
): Promise<StateEntry<V>> {
  const attempts = options.attempts ?? 10;
  const policy = options.backoff ?? DEFAULT_BACKOFF;
  for (let attempt = 1; ; attempt++) {
    const current = (await state.get(key)) as StateEntry<V> | undefined;
    const write = { key, value: update(current), expectedVersion: current?.version ?? 0 };
    const result = await state.write(role, [options.ttlMs === undefined ? write : { ...write, ttlMs: options.ttlMs }]);
    if (result.ok) return result.entries[0] as StateEntry<V>;
    if (attempt >= attempts) {
      throw new SharedStateError(
        'update_contended',
        `Gave up updating "${key}" after ${attempts} attempts: each time another writer changed it first (now at version ${result.conflict.currentVersion}). Raise attempts, or give the key fewer writers.`,
      );
    }
    const delay = backoffDelay(policy, attempt, options.random);
    await new Promise<void>((resolve) => state.clock.setTimeout(resolve, delay));
  }
}
