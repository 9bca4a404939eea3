import { SimulatedClock, type AnyActorRef, type EventObject } from 'xstate';
import type { JournalEntry } from '../../actors/runtime/journal.ts';
import type { AgentBrainLogic } from '../../machines/runtime/agent.ts';
import { createSupervisorMachine, type SupervisorInput } from '../../machines/runtime/supervisor.ts';
import { setSystemNow } from '../../machines/runtime/system-now.ts';
import type { SystemDefinition } from '../../machines/runtime/supervisor-system.ts';
import type { JournalRecord } from '../../protocol/runtime/ack-record.ts';
import { addressingOf } from '../../protocol/runtime/envelope-addressing.ts';
import { HostedRun } from '../run-host/hosted-run.ts';
import { restoredLogic } from '../run-host/restored-logic.ts';
import { journalOf } from '../run-host/run-recovery.ts';
import type { BrainAnswer } from './served-brains.ts';
import { BrainCalls } from './brain-calls.ts';
import { DurableTimers, type TimerDeadlines } from './durable-timers.ts';
import { StateJournal } from './state-journal.ts';

/** How a system's runs are hosted on Restate (what its module declares). */
export interface RestateRunSpec {
  /** The system's name: its objects are `<name>-host` (runs) and `<name>-brains` (brain calls). */
  name: string;
  /** The system's definition with these brains for its agents. */
  definition(brains: Record<string, AgentBrainLogic>): SystemDefinition;
  /** The agents whose brains are called through the brains service. */
  agents: readonly string[];
  /** The agent whose state is the run's. */
  runActor: string;
  runInput(partition: string, journaledIds: Iterable<string>): SupervisorInput;
  /** Sent to a restored run actor (to re-dispatch the work in flight and re-arm its timers). */
  resume?: EventObject;
}

/** What a run object keeps in its state between handlers. */
export interface RunState {
  /** The run actor's persisted snapshot; absent before the first envelope. */
  snapshot?: unknown;
  journal: JournalEntry<JournalRecord>[];
  timers: TimerDeadlines;
  /** Brain answers by call id (`<request id>#<attempt>`). */
  answers: Record<string, BrainAnswer>;
  /** Calls sent to the brains service and not answered yet. */
  sent: string[];
}

/**
 * One run brought back in a Restate handler from its object's state: the supervisor and agents
 * with the run actor restored from its snapshot (told to resume), the journal the state holds,
 * brains that ask `BrainCalls`, and the run's timers as absolute deadlines on a clock that stands
 * at the handler's time. `settle` lets it run until nothing waits for the journal.
 *
 * @example
 * const restored = restoreRun(spec, ctx.key, state, now);
 * restored.run.send(event);
 * await restored.settle();
 */
export function restoreRun(spec: RestateRunSpec, partition: string, state: RunState, now: number) {
  const journal = new StateJournal(partition, state.journal);
  const calls = new BrainCalls(state.answers, new Set(state.sent));
  const timers = new DurableTimers(state.timers, now);
  const clock = new SimulatedClock();
  clock.set(now);
  const system = spec.definition(calls.brains(spec.agents));
  const restored =
    state.snapshot === undefined
      ? system
      : {
          ...system,
          agents: {
            ...system.agents,
            [spec.runActor]: restoredLogic(system.agents[spec.runActor] as never, state.snapshot),
          },
        };
  const machine = createSupervisorMachine(restored, { journal, now: () => clock.now() });
  const { journaledIds } = journalOf(system, state.journal);
  let failure: unknown;
  const run = new HostedRun({
    partition,
    machine,
    input: spec.runInput(partition, journaledIds),
    runActor: spec.runActor,
    clock,
    idOf: addressingOf(system.addressing).idOf,
    ...(state.snapshot !== undefined && spec.resume ? { resume: spec.resume } : {}),
    prepare: (supervisor) => {
      timers.install(supervisor.system as never);
      // What the run stamps stands at the handler's time: a replay stamps the same.
      setSystemNow(supervisor.system, () => clock.now());
    },
    onError: (error) => (failure ??= error),
  });
  const find = (id: string): AnyActorRef | undefined =>
    id === run.supervisor.id
      ? run.supervisor
      : (run.supervisor.getSnapshot().children as Record<string, AnyActorRef | undefined>)[id];
  timers.restored(find);
  return {
    run,
    journal,
    calls,
    timers,
    failure: () => failure,
    /** Fires what is due at `now`, then waits until nothing waits for the journal, however many rounds that takes. */
    async settle(): Promise<void> {
      for (let rounds = 0; rounds < 1_000; rounds++) {
        const before = journal.entries().length + calls.toSend().length;
        const fired = timers.fireDue(now);
        await run.quiescent();
        await new Promise((resolve) => setImmediate(resolve));
        if (!fired && before === journal.entries().length + calls.toSend().length && (await idle(run))) return;
      }
      throw new Error(`Run ${partition} did not settle in 1000 rounds: a timer or a loop keeps it busy.`);
    },
  };
}

async function idle(run: HostedRun): Promise<boolean> {
  let done = false;
  void run.quiescent().then(() => (done = true));
  await Promise.resolve();
  return done;
}

/** A restored run, as `restoreRun` gives it. */
export type RestoredRun = ReturnType<typeof restoreRun>;
