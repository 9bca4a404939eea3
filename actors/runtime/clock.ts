import type { ActorOptions, AnyActorLogic } from 'xstate';

/** The clock of an actor system: real time by default, XState's `SimulatedClock` in tests. */
export type Clock = NonNullable<ActorOptions<AnyActorLogic>['clock']>;

/**
 * Time for the runtime's services (timers of acks, watchdogs, leases, TTLs): the current time and
 * timers. XState's `SimulatedClock` is one, so a test drives every timer with `clock.increment`
 * and never sleeps; {@link realClock} is the other.
 */
export interface ServiceClock extends Clock {
  now(): number;
}

/** Wall-clock time and Node's timers. */
export const realClock: ServiceClock = {
  now: () => Date.now(),
  setTimeout: (fn: (...args: unknown[]) => void, ms: number) => setTimeout(fn, ms),
  clearTimeout: (id: unknown) => clearTimeout(id as NodeJS.Timeout),
};
