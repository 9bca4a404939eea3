import * as restate from '@restatedev/restate-sdk';
import { SimulatedClock } from 'xstate';
import { createMemoryJournal, type JournalDump } from '../../actors/runtime/memory-journal.ts';
import { createMemoryStore, type StoreDump } from '../../actors/runtime/memory-store.ts';
import type { DelegationRecord } from '../../protocol/runtime/delegation-record.ts';
import type { RoutedRecord } from '../../protocol/runtime/routing.ts';
import { HandlerClock } from '../restate/handler-clock.ts';
import type { BrainCall } from '../restate/run-object.ts';
import type { BrainAnswer } from '../restate/served-brains.ts';
import { TierCalls, tierBrainsAsking } from './restate-tier-brains.ts';
import { TaskReader } from './task-reader.ts';
import { TaskRecords } from './task-records.ts';
import { TiersServiceImpl } from './tiers-service.ts';

/** What a `tiers-host` object keeps of its task between handlers: everything the embedded service keeps on disk. */
export interface TiersTaskState {
  /** The task's journals: its envelopes, its delegation tree, its Beads and seen messages. */
  journals: { run: JournalDump<RoutedRecord>; trees: JournalDump<DelegationRecord>; beads: JournalDump };
  /** The task's record (status, outcome, question) and what the run host keeps. */
  store: StoreDump;
  /** Call answers by key (`tierCallKey`). */
  answers: Record<string, BrainAnswer>;
  /** Calls sent to `tiers-run` and not answered yet. */
  sent: string[];
  /** The due times of the task's timers (watchdogs, retries after their backoff), each a `tick` sent. */
  deadlines: number[];
}

/** How the task's service is made in a handler. */
export interface TiersTaskOptions {
  /** Whether `claude-solver` is in the fleet (a model is configured). */
  hasModel: boolean;
}

/** What one handler of a `tiers-host` object does, as data: the calls and ticks to send, the state to save, the answer. */
export interface SteppedTask<T> {
  calls: BrainCall[];
  /** Due times new since the saved state: one delayed `tick` each. */
  ticks: { deadline: number; delayMs: number }[];
  state: TiersTaskState;
  answer: T;
}

/**
 * How long a task's seen messages are kept in its object: its whole life (a century). Each
 * handler rebuilds the task as a restart does, so an answer that expired would hand a handled
 * message over again; the state goes with the task anyway.
 */
const SEEN_FOR_TASK_LIFE_MS = 100 * 365 * 24 * 3_600_000;

const EMPTY: TiersTaskState = {
  journals: { run: {}, trees: {}, beads: {} },
  store: {},
  answers: {},
  sent: [],
  deadlines: [],
};

/** The task's journals in memory, holding what its state holds. */
function journalsOf(state: TiersTaskState) {
  return {
    journal: createMemoryJournal<RoutedRecord>(state.journals.run),
    trees: createMemoryJournal<DelegationRecord>(state.journals.trees),
    beads: createMemoryJournal<unknown>(state.journals.beads),
  };
}

/**
 * One exclusive step of a tiers task on Restate, without its context: the embedded tiers service
 * rebuilt over the task's state at `now` (its journals and store in memory, its calls asking
 * {@link TierCalls}, its timers on a {@link HandlerClock}), which, as after a restart, reopens
 * an unfinished task and hands every message not yet handled over again (the dedup service
 * answers what was); `take` changes the state first (an answer), `act` does the handler's
 * operation on the service. Then the task works until it waits for nothing but calls or
 * timers. For the same `saved`, `now` and operation, this answers the same sends and state:
 * a handler replayed after a crash must, or Restate finds its journal mismatched.
 * Anything that goes wrong (a state that cannot be rebuilt, an operation that throws, a task
 * that never settles) would go wrong again on every retry: it throws a `TerminalError`, so the
 * invocation fails for good instead of holding the object's queue.
 *
 * @example
 * const { calls, ticks, state, answer } = await stepTiersTask(taskId, saved, now, options, (s) => s.submit(user, request, taskId));
 */
export async function stepTiersTask<T>(
  key: string,
  saved: TiersTaskState | null,
  now: number,
  options: TiersTaskOptions,
  act: (service: TiersServiceImpl) => Promise<T>,
  take: (state: TiersTaskState) => void = () => undefined,
): Promise<SteppedTask<T>> {
  try {
    return await step(saved, now, options, act, take);
  } catch (error) {
    if (error instanceof restate.TerminalError) throw error;
    throw new restate.TerminalError(`Task ${key}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function step<T>(
  saved: TiersTaskState | null,
  now: number,
  options: TiersTaskOptions,
  act: (service: TiersServiceImpl) => Promise<T>,
  take: (state: TiersTaskState) => void,
): Promise<SteppedTask<T>> {
  const state: TiersTaskState = structuredClone(saved ?? EMPTY);
  take(state);
  const journals = journalsOf(state);
  const store = createMemoryStore(state.store);
  const clock = new HandlerClock(now);
  // The statecharts' own timers (agents' backstops, the supervisor's windows) live as long as the handler, as on a restart.
  const runClock = new SimulatedClock() as SimulatedClock & { now(): number };
  runClock.set(now);
  const calls = new TierCalls(state.answers, new Set(state.sent));
  const service = await TiersServiceImpl.open({
    ...journals,
    store,
    clock,
    runClock,
    brains: tierBrainsAsking((agent, input) => calls.ask(agent, input), options.hasModel),
    seenForMs: SEEN_FOR_TASK_LIFE_MS,
  });
  try {
    let outcome: { value: T } | { error: unknown } | undefined;
    void act(service).then(
      (value) => (outcome = { value }),
      (error: unknown) => (outcome = { error }),
    );
    const progress = () =>
      [journals.journal, journals.trees, journals.beads].reduce((sum, j) => sum + j.stats().appends, 0) +
      calls.toSend().length +
      clock.deadlines().length;
    const fire = () => {
      const fired = clock.fireDue();
      runClock.increment(0);
      return fired;
    };
    await settle(fire, progress, () => outcome !== undefined);
    // `settle` returns once the operation ended.
    const ended = outcome!;
    if ('error' in ended) throw ended.error;
    const sent = calls.toSend();
    const deadlines = clock.deadlines();
    return {
      calls: sent,
      ticks: deadlines
        .filter((deadline) => !state.deadlines.includes(deadline))
        .map((deadline) => ({ deadline, delayMs: deadline - now })),
      state: {
        journals: { run: journals.journal.dump(), trees: journals.trees.dump(), beads: journals.beads.dump() },
        store: store.dump(),
        answers: state.answers,
        sent: [...state.sent, ...sent.map((call) => call.id)],
        deadlines,
      },
      answer: ended.value,
    };
  } finally {
    await service.close();
  }
}

/** Rounds of the event loop a rebuilt task is given to settle (it runs in memory: a few dozen do). */
const MAX_ROUNDS = 10_000;
/** Rounds in a row with nothing new before the task counts as settled. */
const QUIET_ROUNDS = 3;

/** Fires what is due and turns the event loop until nothing changes for `QUIET_ROUNDS` rounds and `done` holds. */
async function settle(fire: () => boolean, progress: () => number, done: () => boolean): Promise<void> {
  let quiet = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const before = progress();
    const fired = fire();
    await new Promise((resolve) => setImmediate(resolve));
    quiet = !fired && progress() === before ? quiet + 1 : 0;
    if (quiet >= QUIET_ROUNDS && done()) return;
  }
  throw new Error(`it did not settle in ${MAX_ROUNDS} rounds: a timer or a loop keeps it busy.`);
}

/** What the `view` handler reads of a task for its user. */
export type TaskRead =
  { read: 'view' | 'messages' | 'replay'; user: string } | { read: 'beads'; user: string; prefix?: string };

/**
 * Reads a task's state for its user as the embedded service reads its journals (nothing rebuilt,
 * nothing armed): its view, envelopes, Beads or past events; null when it is not the user's.
 *
 * @example
 * const view = await readTask(taskId, state, { read: 'view', user });
 */
export async function readTask(key: string, state: TiersTaskState | null, request: TaskRead): Promise<unknown> {
  if (!state) return null;
  const reader = new TaskReader(journalsOf(state), new TaskRecords(createMemoryStore(state.store)), () => undefined);
  const read = (): Promise<unknown> => {
    switch (request.read) {
      case 'view':
        return reader.view(request.user, key);
      case 'messages':
        return reader.messages(request.user, key);
      case 'replay':
        return reader.replay(request.user, key);
      case 'beads':
        return reader.beads(request.user, key, request.prefix);
    }
  };
  const answer = await read();
  return answer ?? null;
}
