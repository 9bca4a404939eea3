import type { ActorOptions, AnyActorLogic } from 'xstate';

/** The clock of an actor system: real time by default, XState's `SimulatedClock` in tests. */
export type Clock = NonNullable<ActorOptions<AnyActorLogic>['clock']>;
