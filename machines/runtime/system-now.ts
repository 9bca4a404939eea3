/**
 * The time of an actor system as its host tells it: a run restored in a Restate handler stands
 * at the handler's journaled time, so whatever its statecharts stamp while it runs is the same
 * when the handler is replayed elsewhere. A system no host set answers the wall clock.
 *
 * @example
 * setSystemNow(supervisor.system, () => clock.now()); // the host, before the run starts
 * const at = systemNow(system); // an action of any actor of that system
 */
const clocks = new WeakMap<object, () => number>();

export function setSystemNow(system: object, now: () => number): void {
  clocks.set(system, now);
}

/** Milliseconds since the epoch on `system`'s clock. */
export function systemNow(system: object): number {
  return clocks.get(system)?.() ?? Date.now();
}
