import { createActor, type Actor } from 'xstate';
import type { ServiceClock } from '../../actors/runtime/clock.ts';
import type { Journal } from '../../actors/runtime/journal.ts';
import type { JournalRecord } from '../../protocol/runtime/ack-record.ts';
import { createSupervisorMachine, type SupervisorMachine } from '../runtime/supervisor.ts';
import { coscientistSystem } from './coscientist-system.ts';

/** The runtime supervisor that routes one goal's messages, and how the goal lets go of it. */
export interface GoalSupervisor {
  supervisor: Actor<SupervisorMachine>;
  /** The goal is closed: its supervisor stops (the run host's run is released). */
  release(): void;
}

/**
 * Where a goal's supervisor comes from: the server's run host (`host.start`, which admits the
 * goal as working, or refuses it with 503/429), given the ids its journal already holds.
 */
export type GoalRouter = (researchId: string, journaledIds: readonly string[]) => GoalSupervisor;

/**
 * A supervisor of the goal's own, outside any run host (unit tests, and a goal opened only to be
 * read): the co-scientist's system on the message journal and the clock.
 *
 * @example
 * const { supervisor, release } = detachedSupervisor({ journal, clock })('r-1', []);
 */
export function detachedSupervisor(options: { journal: Journal<JournalRecord>; clock: ServiceClock }): GoalRouter {
  return (_researchId, journaledIds) => {
    const machine = createSupervisorMachine(coscientistSystem(), {
      journal: options.journal,
      now: () => options.clock.now(),
    });
    const supervisor = createActor(machine, { input: { journaledIds: [...journaledIds] }, clock: options.clock });
    supervisor.start();
    return { supervisor, release: () => supervisor.stop() };
  };
}
