import { createActor, createMachine, type AnyActorRef } from 'xstate';
import { describe, expect, it } from 'vitest';
import { DurableTimers, type TimerDeadlines } from '../../../../server/restate/durable-timers.ts';

/** Waits 1000 ms in `waiting` (an `after`), or until `poke` re-arms a 500 ms delayed raise. */
const waiter = createMachine({
  id: 'waiter',
  initial: 'waiting',
  states: {
    waiting: {
      after: { 1000: 'late' },
      on: { poke: { target: 'waiting', reenter: true } },
    },
    late: {},
  },
});

/** One handler of a run object: the actor restored from `persisted` at `now`, its timers from `saved`. */
function handler(now: number, saved: TimerDeadlines, persisted?: unknown) {
  const timers = new DurableTimers(saved, now);
  const actor = createActor(waiter, { id: 'waiter', ...(persisted ? { snapshot: persisted as never } : {}) });
  timers.install(actor.system as never);
  actor.start();
  timers.restored((id): AnyActorRef | undefined => (id === actor.id ? actor : undefined));
  return { actor, timers };
}

describe('DurableTimers', () => {
  it('keeps an after timer as an absolute deadline across restores, and fires it when due', () => {
    const first = handler(0, {});
    expect(first.timers.refusal()).toBeUndefined();
    const saved = first.timers.deadlines();
    const [timer] = Object.values(saved);
    expect(timer?.deadline).toBe(1000);
    const persisted = first.actor.getPersistedSnapshot();

    // Restored at 600 ms (XState does not re-arm it): the saved deadline stands, nothing is due.
    const second = handler(600, saved, persisted);
    expect(second.timers.fireDue(600)).toBe(false);
    expect(second.actor.getSnapshot().value).toBe('waiting');
    expect(Object.values(second.timers.deadlines())[0]?.deadline).toBe(1000);

    // Restored at 1000 ms: due, delivered.
    const third = handler(1000, second.timers.deadlines(), second.actor.getPersistedSnapshot());
    expect(third.timers.fireDue(1000)).toBe(true);
    expect(third.actor.getSnapshot().value).toBe('late');
    expect(third.timers.deadlines()).toEqual({});
  });

  it('arms a timer anew from the handler time once the run is restored (a re-entered state)', () => {
    const first = handler(0, {});
    const second = handler(400, first.timers.deadlines(), first.actor.getPersistedSnapshot());
    second.actor.send({ type: 'poke' });
    expect(Object.values(second.timers.deadlines()).map((t) => t.deadline)).toEqual([1400]);
  });

  it('refuses a timer of an actor without an id of its own: its key would differ in a replay', () => {
    const timers = new DurableTimers({}, 0);
    const actor = createActor(waiter);
    timers.install(actor.system as never);
    const errors: unknown[] = [];
    actor.subscribe({ error: (error) => errors.push(error) });
    actor.start();
    expect(String(errors[0])).toMatch(/actor x:\d+ cannot be kept: the actor has no id of its own/);
    // The handler hears it too, whichever actor it was (an agent's error would not fail the run).
    expect(timers.refusal()).toMatch(/actor x:\d+ cannot be kept/);
    expect(timers.deadlines()).toEqual({});
  });
});
