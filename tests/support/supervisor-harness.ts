import { createActor, waitFor, type AnyActorRef, type InspectionEvent, type SimulatedClock } from 'xstate';
import type { SystemDefinition } from '../../machines/runtime/supervisor-system.ts';
import type { Journal } from '../../actors/runtime/journal.ts';
import { createMemoryJournal } from '../../actors/runtime/memory-journal.ts';
import {
  createSupervisorMachine,
  type SupervisorEmitted,
  type SupervisorInput,
} from '../../machines/runtime/supervisor.ts';
import type { JournalRecord } from '../../protocol/runtime/ack-record.ts';
import type { RoutedRecord } from '../../protocol/runtime/routing.ts';
import { testSystem } from './test-system.ts';

/** The test system's supervisor (recorder agents A, B, C), with what it emitted and what each agent got. */
export function startSupervisor(journal: Journal<RoutedRecord> = createMemoryJournal(), clock?: SimulatedClock) {
  return startSystem(testSystem(), journal, clock);
}

/** How a test starts a supervisor beyond its system, journal and clock. */
interface StartOptions {
  /** What the supervisor starts with (a restored run's journal, say). */
  input?: SupervisorInput;
  /** XState's inspection of the whole actor system. */
  inspect?: (event: InspectionEvent) => void;
}

/** Any system's supervisor (of recorder agents), its clock for expiry too when one is given. */
export function startSystem(
  system: SystemDefinition,
  journal: Journal<JournalRecord> = createMemoryJournal(),
  clock?: SimulatedClock,
  options: StartOptions = {},
) {
  const now = clock ? { now: () => clock.now() } : {};
  const actor = createActor(createSupervisorMachine(system, { journal, ...now }), {
    input: options.input ?? {},
    ...(clock ? { clock } : {}),
    ...(options.inspect ? { inspect: options.inspect } : {}),
  });
  const emitted: SupervisorEmitted[] = [];
  actor.on('*', (event) => emitted.push(event as SupervisorEmitted));
  actor.start();
  const agent = (name: string) => (actor.getSnapshot().children as Record<string, AnyActorRef>)[name]!;
  const received = (name: string) =>
    (
      agent(name).getSnapshot().context.received as { input: { envelope: any; delivery: any; context?: unknown } }[]
    ).map((d) => ({ ...d.input, input: d.input.envelope }));
  const rejected = (name: string) =>
    agent(name).getSnapshot().context.rejected as {
      error: { code: string; message: string; issues?: { path: string }[] };
    }[];
  const sendAs = (name: string, event: unknown) => agent(name).send({ type: 'recorder.send', event });
  return { actor, emitted, agent, received, rejected, sendAs };
}

/** Waits (2 s at most) until an actor's context satisfies `predicate`. */
export const until = (ref: AnyActorRef, predicate: (context: any) => boolean) =>
  waitFor(ref, (snapshot) => predicate(snapshot.context), { timeout: 2_000 });

/** Lets the journal writer, the deliverer and the agents run what is due (one macrotask). */
export const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs `clock` on by `ms`, in steps of `step` ms, letting what each step makes due run. */
export async function advance(clock: SimulatedClock, ms: number, step = 100): Promise<void> {
  for (let t = 0; t < ms; t += step) {
    clock.increment(step);
    await flush();
  }
}
