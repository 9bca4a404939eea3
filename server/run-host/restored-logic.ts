import type { AnyStateMachine } from 'xstate';

/**
 * The same machine, but whose actors start from a persisted snapshot instead of the initial
 * state: what a parent spawns by name when it restores a child after a restart. (Timers are not
 * re-armed by XState, statelyai/xstate#5331: the restored machine must be told to resume.)
 */
export function restoredLogic<M extends AnyStateMachine>(machine: M, persisted: unknown): M {
  const logic = Object.create(machine) as M;
  logic.getInitialSnapshot = ((actorScope: Parameters<M['restoreSnapshot']>[1]) =>
    machine.restoreSnapshot(persisted as never, actorScope)) as M['getInitialSnapshot'];
  return logic;
}
