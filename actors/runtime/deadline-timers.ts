import type { ServiceClock } from './clock.ts';

/** Node's longest timer: a longer delay fires at once (TimeoutOverflowWarning). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * One timer per key, armed for an absolute time on a {@link ServiceClock} (watchdogs, retries,
 * leases). Absolute times are what a journal keeps, so a service reopened after a restart
 * re-arms each timer from the time it recorded; a time already past fires on the clock's next
 * turn (delay 0), never synchronously inside `arm`. Arming a key again replaces its timer.
 *
 * @example
 * const timers = new DeadlineTimers<string>(clock);
 * timers.arm(node.id, node.deadline, () => expire(node.id));
 */
export class DeadlineTimers<K> {
  private readonly handles = new Map<K, unknown>();

  constructor(private readonly clock: ServiceClock) {}

  /**
   * Runs `fire` at `at` (ms since the epoch of the clock), replacing the key's timer if any. A
   * time further than Node's longest timer (2^31 - 1 ms, about 24.8 days; Node fires a longer one
   * at once) is reached in steps, each re-armed when it ends.
   */
  arm(key: K, at: number, fire: () => void): void {
    this.disarm(key);
    const remaining = Math.max(0, at - this.clock.now());
    const handle = this.clock.setTimeout(
      () => {
        this.handles.delete(key);
        if (remaining > MAX_TIMER_MS) this.arm(key, at, fire);
        else fire();
      },
      Math.min(remaining, MAX_TIMER_MS),
    );
    this.handles.set(key, handle);
  }

  /** Cancels the key's timer; false when it had none. */
  disarm(key: K): boolean {
    if (!this.handles.has(key)) return false;
    this.clock.clearTimeout(this.handles.get(key));
    this.handles.delete(key);
    return true;
  }

  has(key: K): boolean {
    return this.handles.has(key);
  }

  /** How many timers are armed. */
  get size(): number {
    return this.handles.size;
  }

  /** Cancels every timer (on close). */
  clear(): void {
    for (const handle of this.handles.values()) this.clock.clearTimeout(handle);
    this.handles.clear();
  }
}
