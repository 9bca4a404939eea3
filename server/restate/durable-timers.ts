import type { AnyActorRef, EventObject } from 'xstate';

/** A statechart timer as a run object's state keeps it: when it is due (ms since the epoch), to whom, what. */
export interface SavedTimer {
  deadline: number;
  /** The id of the actor it goes to (the run actor, an agent, the supervisor). */
  target: string;
  event: EventObject;
}

/** A run's timers by `<actor id>.<timer id>`. */
export type TimerDeadlines = Record<string, SavedTimer>;

interface Armed {
  deadline: number;
  source: AnyActorRef | undefined;
  target: AnyActorRef;
  event: EventObject;
}

/** The part of XState's actor system that schedules delayed events (`after`, delayed `raise`/`sendTo`). */
interface Scheduler {
  schedule(source: AnyActorRef, target: AnyActorRef, event: EventObject, delay: number, id: string | undefined): void;
  cancel(source: AnyActorRef, id: string): void;
  cancelAll(source: AnyActorRef): void;
}

/**
 * The timers of a run restored in a Restate handler, as absolute deadlines. Installed as its
 * actor system's scheduler, it keeps every delayed event under `<actor id>.<timer id>` instead
 * of a clock timeout. XState does not re-arm timers on restore (statelyai/xstate#5331), and a
 * restored machine told to resume re-arms its timers with their full delay: while `restoring`,
 * a timer armed again under a key the state knows keeps its persisted deadline, and one it does
 * not arm again (an `after` of the state it is in) is armed from the state. `fireDue(now)`
 * delivers what is due; `deadlines()` is what the object saves, each one a delayed message to
 * itself (so `after` survives any restart by construction).
 *
 * @example
 * const timers = new DurableTimers(state.timers ?? {}, now);
 * timers.install(supervisor.system); // before the supervisor starts
 */
export class DurableTimers {
  private readonly armed = new Map<string, Armed>();
  private restoring = true;
  private frozen: TimerDeadlines | undefined;
  private refused: string | undefined;

  constructor(
    private readonly persisted: Readonly<TimerDeadlines>,
    private readonly now: number,
  ) {}

  install(system: { scheduler: Scheduler }): void {
    system.scheduler = {
      schedule: (source, target, event, delay, id) => {
        if (this.frozen) return;
        const key = `${this.stableId(source)}.${id ?? event.type}`;
        this.stableId(target);
        const kept = this.restoring ? this.persisted[key]?.deadline : undefined;
        this.armed.set(key, { deadline: kept ?? this.now + delay, source, target, event });
      },
      cancel: (source, id) => {
        if (!this.frozen) this.armed.delete(`${source.id}.${id}`);
      },
      cancelAll: (source) => {
        if (this.frozen) return;
        for (const [key, armed] of this.armed) if (armed.source === source) this.armed.delete(key);
      },
    };
  }

  /**
   * The run is restored and resumed: saved timers it did not arm again are armed as saved (to
   * the actor `find` names), and timers armed from now on are new.
   */
  restored(find: (id: string) => AnyActorRef | undefined): void {
    this.restoring = false;
    for (const [key, saved] of Object.entries(this.persisted)) {
      const target = find(saved.target);
      if (!this.armed.has(key) && target)
        this.armed.set(key, { deadline: saved.deadline, source: undefined, target, event: saved.event });
    }
  }

  /** Delivers every timer due at `now` (in deadline order); true when one fired. */
  fireDue(now: number): boolean {
    const due = [...this.armed].filter(([, armed]) => armed.deadline <= now);
    due.sort(([, a], [, b]) => a.deadline - b.deadline);
    for (const [key, armed] of due) {
      if (this.armed.get(key) !== armed) continue;
      this.armed.delete(key);
      armed.target.send(armed.event);
    }
    return due.length > 0;
  }

  /** Why a timer was refused (an actor without an id of its own), if one was: the run cannot be kept. */
  refusal(): string | undefined {
    return this.refused;
  }

  /**
   * An actor's id, which keys its timers in the object's state and in the messages its handler
   * sends: it must not be the session id XState made up (`x:N`, counted per process), or a
   * handler replayed after a crash sends other messages than its journal holds and is retried
   * forever, and a saved timer finds no actor to go to. Such an actor is refused (it errors, and
   * `refusal` tells the handler, whichever actor it was).
   */
  private stableId(actor: AnyActorRef): string {
    if (actor.id !== actor.sessionId) return actor.id;
    this.refused ??= `A timer of actor ${actor.id} cannot be kept: the actor has no id of its own. Give it an \`id\`.`;
    throw new Error(this.refused);
  }

  /** The deadlines to save; taken once the run is quiescent, after which the stopping run changes nothing. */
  deadlines(): TimerDeadlines {
    this.frozen ??= Object.fromEntries(
      [...this.armed].map(([key, { deadline, target, event }]) => [key, { deadline, target: target.id, event }]),
    );
    return this.frozen;
  }
}
