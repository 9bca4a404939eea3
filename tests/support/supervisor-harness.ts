import { createActor, waitFor, type AnyActorRef, type SimulatedClock } from 'xstate';
import type { SystemDefinition } from '../../machines/runtime/supervisor-system.ts';
import type { Journal } from '../../actors/runtime/journal.ts';
import { createMemoryJournal } from '../../actors/runtime/memory-journal.ts';
import { createSupervisorMachine, type SupervisorEmitted } from '../../machines/runtime/supervisor.ts';
import type { RoutedRecord } from '../../protocol/runtime/routing.ts';
import { testSystem } from './test-system.ts';

/** The test system's supervisor (recorder agents A, B, C), with what it emitted and what each agent got. */
export function startSupervisor(journal: Journal<RoutedRecord> = createMemoryJournal(), clock?: SimulatedClock) {
  return startSystem(testSystem(), journal, clock);
}

/** Any system's supervisor (of recorder agents), its clock for expiry too when one is given. */
export function startSystem(
  system: SystemDefinition,
  journal: Journal<RoutedRecord> = createMemoryJournal(),
  clock?: SimulatedClock,
) {
  const now = clock ? { now: () => clock.now() } : {};
  const actor = createActor(createSupervisorMachine(system, { journal, ...now }), {
    input: {},
    ...(clock ? { clock } : {}),
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
