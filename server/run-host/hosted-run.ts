import { createActor, type AnyActorRef, type EventObject, type InspectionEvent, type Snapshot } from 'xstate';
import type { Clock } from '../../actors/runtime/clock.ts';
import type { SupervisorInput, SupervisorMachine } from '../../machines/runtime/supervisor.ts';
import { addressingOf, type EnvelopeAddressing } from '../../protocol/runtime/envelope-addressing.ts';
import type { RoutedRecord } from '../../protocol/runtime/routing.ts';
import type { RefusedRecord } from '../../protocol/runtime/refused-record.ts';
import { RefusalJournal } from './refusal-journal.ts';

/**
 * How long after a change its snapshot is written, so that a burst of changes is one write (a
 * pipeline run: about two, its first with its record and its last as it rests) and the write
 * lands while the next agent works instead of competing with the journal for the disk. A
 * snapshot older than the journal is safe to restore from: the run's sends are idempotent, and
 * what must be on disk before a caller hears of it waits for `flush` (`persisted`).
 */
const PERSIST_DELAY_MS = 100;

/** What watchers of a run hear: each transition of its run actor, and each envelope the supervisor routed. */
export type RunEvent =
  { type: 'state'; data: { from: string; to: string; state: string } } | { type: 'message'; data: unknown };

/** A run actor's snapshot as the host reads it: a state value and a context. */
export type RunSnapshot = Snapshot<unknown> & { value: unknown; context: any };

export interface HostedRunOptions {
  partition: string;
  machine: SupervisorMachine;
  input: SupervisorInput;
  /** The supervisor's child whose state is the run's (the pipeline's ORCHESTRATOR, the TRAINER loop). */
  runActor: string;
  clock?: Clock;
  /** The id of one of the system's envelopes (its addressing's); spec 000's `message_id` by default. */
  idOf?: (envelope: unknown) => string | undefined;
  /**
   * Appends a `refused` record of each envelope refused at admission to the run's journal (a
   * system's opt-in, `RunHostOptions.journalRefusals`); with it the system's addressing.
   */
  refusals?: { append: (record: RefusedRecord) => Promise<unknown>; addressing?: EnvelopeAddressing | undefined };
  /** Sent to the run actor once started, after a restore (XState does not re-arm timers, #5331). */
  resume?: EventObject;
  /** Called after every change of the run actor (keep it cheap: it runs on the routing path). */
  onChange?: (snapshot: RunSnapshot) => void;
  /** Called with the run actor's persisted snapshot shortly after a burst of changes, once for the burst. */
  persist?: (persisted: unknown, snapshot: RunSnapshot) => void;
  /** Every inspection event of the run's actors (the visualizer's live view listens here). */
  inspect?: (event: InspectionEvent) => void;
  /**
   * An error of the run actor or its supervisor (an action that threw on a damaged snapshot,
   * say): the run is in `error` from then on. Heard here, it is never thrown out of the process.
   */
  onError?: (error: unknown) => void;
  /** Called with the supervisor once created, before it starts (a host that schedules timers its own way installs it here). */
  prepare?: (supervisor: AnyActorRef) => void;
}

/**
 * One supervised run on the host: a supervisor with the system's agents, its run actor's
 * snapshot persisted after changes, its transitions and routed envelopes fanned out to watchers.
 */
export class HostedRun {
  readonly partition: string;
  readonly supervisor;
  /** The run actor (a child of the supervisor). */
  readonly actor: AnyActorRef;
  private readonly watchers = new Set<(event: RunEvent) => void>();
  /** Waiting for a state of the supervisor: nothing waits for the journal (and, for `quiescent`, no ack). */
  private readonly drained = new Set<{ ready: () => boolean; resolve: () => void }>();
  private persistTimer: NodeJS.Timeout | undefined;
  private readonly persistNow: () => void;
  private readonly idOf: (envelope: unknown) => string | undefined;
  private readonly refusals: RefusalJournal | undefined;

  constructor(options: HostedRunOptions) {
    this.partition = options.partition;
    this.idOf = options.idOf ?? addressingOf().idOf;
    let actor: AnyActorRef | undefined;
    this.supervisor = createActor(options.machine, {
      // Its machine's id, not a session id that depends on how many actors this process made
      // before: a Restate handler replayed elsewhere keys the supervisor's timers the same.
      id: options.machine.id,
      input: options.input,
      ...(options.clock ? { clock: options.clock } : {}),
      inspect: (event) => {
        options.inspect?.(event);
        if (event.type !== '@xstate.microstep' || event.actorRef !== actor) return;
        for (const t of event._transitions) {
          const target = t.target?.[0];
          if (target)
            this.notify({
              type: 'state',
              data: { from: String(t.source.path[0]), to: String(target.path[0]), state: String(target.path[0]) },
            });
        }
      },
    });
    const onRouted = (record: RoutedRecord) => {
      this.refusals?.routed(record.envelope);
      this.notify({ type: 'message', data: record.envelope });
    };
    this.supervisor.on('supervisor.routed', ({ records }) => records.forEach(onRouted));
    this.supervisor.on('supervisor.outbound', ({ record }) => onRouted(record));
    if (options.refusals) {
      const refusals = new RefusalJournal({ ...options.refusals, idOf: this.idOf, settled: () => this.checkDrained() });
      this.refusals = refusals;
      this.supervisor.on('supervisor.rejected', (event) => refusals.refused(event));
    }
    // After each of the supervisor's steps, when its bookkeeping says everything is settled.
    const onError = options.onError ?? ((error: unknown) => console.error(`Run ${options.partition} failed:`, error));
    this.supervisor.subscribe({ next: () => this.checkDrained(), error: onError });
    options.prepare?.(this.supervisor);
    this.supervisor.start();
    actor = (this.supervisor.getSnapshot().children as Record<string, AnyActorRef | undefined>)[options.runActor];
    if (!actor)
      throw new Error(
        `The system has no agent ${options.runActor} to host runs on; name one of its agents as the run actor.`,
      );
    this.actor = actor;
    const { persist } = options;
    this.persistNow = () => {
      this.persistTimer = undefined;
      persist?.(actor.getPersistedSnapshot(), actor.getSnapshot());
    };
    actor.subscribe({
      next: (snapshot: RunSnapshot) => {
        options.onChange?.(snapshot);
        if (persist) this.persistTimer ??= setTimeout(this.persistNow, PERSIST_DELAY_MS);
      },
      error: onError,
    });
    if (options.resume) actor.send(options.resume);
  }

  send<E extends EventObject>(event: E): void {
    this.actor.send(event);
  }

  snapshot(): RunSnapshot {
    return this.actor.getSnapshot();
  }

  watch(listener: (event: RunEvent) => void): () => void {
    this.watchers.add(listener);
    return () => this.watchers.delete(listener);
  }

  /** Resolves with the first snapshot (the current one included) that satisfies `predicate`. */
  until(predicate: (snapshot: RunSnapshot) => boolean, signal?: AbortSignal): Promise<RunSnapshot> {
    return new Promise((resolve, reject) => {
      if (predicate(this.snapshot())) return resolve(this.snapshot());
      if (signal?.aborted) return reject(signal.reason);
      const aborted = () => {
        subscription.unsubscribe();
        reject(signal!.reason);
      };
      const subscription = this.actor.subscribe((snapshot: RunSnapshot) => {
        if (!predicate(snapshot)) return;
        subscription.unsubscribe();
        signal?.removeEventListener('abort', aborted);
        resolve(snapshot);
      });
      signal?.addEventListener('abort', aborted, { once: true });
    });
  }

  /**
   * Resolves once every envelope handed to the supervisor so far has been routed (journaled) or
   * refused, no agent's output waits for its input to reach the disk, and no envelope awaits an
   * ack (a redelivery pending): only then may a resting run be retired.
   */
  quiescent(): Promise<void> {
    return this.once(() => this.journalIdle() && this.noAckPending());
  }
  /**
   * Resolves once the envelope `messageId` is in the journal, or once nothing of the run waits
   * for the journal any more (it was refused). Call it in the same tick as the send that hands
   * the envelope over: the journal acknowledges later, never during the send. Where refusals are
   * journaled, a refused envelope resolves with its `refused` record, once that is durable.
   */
  async journaled(messageId: string): Promise<RefusedRecord | undefined> {
    await new Promise<void>((resolve) => {
      const done = () => {
        stop();
        resolve();
      };
      const stop = this.watch((event) => {
        if (event.type === 'message' && this.idOf(event.data) === messageId) done();
      });
      void this.once(() => this.journalIdle()).then(done);
    });
    return this.refusals?.of(messageId);
  }

  /** Hands the latest snapshot to `persist` now if a change waits for its delayed write. */
  flush(): void {
    if (!this.persistTimer) return;
    clearTimeout(this.persistTimer);
    this.persistNow();
  }

  /** Stops the run: its last changes are written first. */
  stop(): void {
    this.flush();
    this.watchers.clear();
    this.supervisor.stop();
  }

  private journalIdle(): boolean {
    return this.supervisor.getSnapshot().context.ledger.idle() && !this.refusals?.writing;
  }

  private noAckPending(): boolean {
    const { acks } = this.supervisor.getSnapshot().context;
    return acks === undefined || acks.ledger.size === 0;
  }

  /** Resolves once `ready` holds, checked now and after each supervisor step. */
  private once(ready: () => boolean): Promise<void> {
    if (ready()) return Promise.resolve();
    return new Promise((resolve) => this.drained.add({ ready, resolve }));
  }

  private checkDrained(): void {
    for (const waiter of this.drained) {
      if (!waiter.ready()) continue;
      this.drained.delete(waiter);
      waiter.resolve();
    }
  }

  private notify(event: RunEvent): void {
    for (const watcher of this.watchers) watcher(event);
  }
}
