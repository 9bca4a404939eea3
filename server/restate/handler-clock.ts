import type { ServiceClock } from '../../actors/runtime/clock.ts';

interface Pending {
  at: number;
  fire: () => void;
}

/**
 * The time of a service rebuilt in a Restate handler: it stands at the handler's journaled time
 * (`ctx.date.now()`), so a replay computes the same. A timer is kept as its absolute due time:
 * `fireDue` runs those due at that time (the ones armed meanwhile too), and `deadlines` are the
 * later ones, each to become a delayed message of the object to itself (a timer then survives
 * any restart by construction: the next handler rebuilds the service, which arms it again).
 *
 * @example
 * const clock = new HandlerClock(await ctx.date.now());
 * const tree = await openDelegationTree({ journal, partition, clock });
 * clock.fireDue();
 */
export class HandlerClock implements ServiceClock {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(private readonly at: number) {}

  now(): number {
    return this.at;
  }

  setTimeout(fire: (...args: unknown[]) => void, ms: number): number {
    const id = this.nextId++;
    this.pending.set(id, { at: this.at + Math.max(0, ms), fire: () => fire() });
    return id;
  }

  clearTimeout(id: unknown): void {
    this.pending.delete(id as number);
  }

  /** Runs every timer due now, in due-time order, with those they arm that are due too; true when one ran. */
  fireDue(): boolean {
    let fired = false;
    for (;;) {
      const due = [...this.pending].filter(([, timer]) => timer.at <= this.at).sort(([, a], [, b]) => a.at - b.at);
      if (due.length === 0) return fired;
      for (const [id, timer] of due) {
        if (!this.pending.delete(id)) continue;
        fired = true;
        timer.fire();
      }
    }
  }

  /** The due times of the timers still armed (later than now), earliest first, each once. */
  deadlines(): number[] {
    return [...new Set([...this.pending.values()].map((timer) => timer.at))].sort((a, b) => a - b);
  }
}
