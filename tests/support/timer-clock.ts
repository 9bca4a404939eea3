import { SimulatedClock } from 'xstate';

/**
 * A simulated clock that also tells which timers are armed (set, and neither fired nor cleared),
 * by their delay: how a test sees that an actor cancelled a delayed event it no longer needs.
 */
export class TimerClock extends SimulatedClock {
  readonly #armed = new Map<number, number>();

  override setTimeout(fn: (...args: any[]) => void, timeout: number): number {
    const id = super.setTimeout(() => {
      this.#armed.delete(id);
      fn();
    }, timeout);
    this.#armed.set(id, timeout);
    return id;
  }

  override clearTimeout(id: number): void {
    this.#armed.delete(id);
    super.clearTimeout(id);
  }

  /** How many timers are armed: of `delay` ms, or of any delay. */
  armed(delay?: number): number {
    if (delay === undefined) return this.#armed.size;
    let count = 0;
    for (const armed of this.#armed.values()) if (armed === delay) count++;
    return count;
  }
}
