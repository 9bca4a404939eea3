import { createActor, type ActorOptions, type AnyActorLogic, type AnyActorRef, type InspectionEvent, type SnapshotFrom } from 'xstate';
import type { Journal } from '../../actors/runtime/journal.ts';
import { nutritionRunInput } from '../../machines/nutrition/nutrition-system.ts';
import { pipelineMachine, type PipelineEvent, type PipelineMachine } from '../../machines/nutrition/pipeline.ts';
import { createSupervisorMachine, type SupervisorMachine } from '../../machines/runtime/supervisor.ts';
import type { SystemDefinition } from '../../machines/runtime/supervisor-system.ts';
import type { RoutedRecord } from '../../protocol/runtime/routing.ts';
import { restoredLogic } from '../run-host/restored-logic.ts';

/** The actor system's clock (a `SimulatedClock` in tests). */
export type Clock = NonNullable<ActorOptions<AnyActorLogic>['clock']>;

/**
 * How long after a change its snapshot is written: the write lands while the next agent works
 * instead of competing with the journal for the disk as the next envelope goes out. A snapshot
 * older than the journal is safe to restore from: the run's sends are idempotent.
 */
const PERSIST_DELAY_MS = 20;

/** What watchers of a run hear: each transition, and each envelope the supervisor routed. */
export type RunEvent =
  | { type: 'state'; data: { from: string; to: string; state: string } }
  | { type: 'message'; data: unknown };

export interface LiveRunOptions {
  runId: string;
  /** The nutrition system every run shares, and its supervisor machine (built once: building costs more than starting). */
  system: SystemDefinition;
  machine: SupervisorMachine;
  /** The journal of `machine` (a restored run builds its own machine on it). */
  journal: Journal<RoutedRecord>;
  clock?: Clock;
  pipelineTimeoutMs?: number;
  /** A persisted orchestrator snapshot to continue from, with the ids its journal already holds. */
  restore?: { snapshot: unknown; journaledIds: string[] };
  /** Called after every orchestrator change (keep it cheap: it runs on the routing path). */
  onChange?: (snapshot: SnapshotFrom<PipelineMachine>) => void;
  /**
   * Called with the orchestrator's persisted snapshot shortly after a burst of changes (once
   * for the burst), so that serializing a run never delays its own messages.
   */
  persist: (snapshot: SnapshotFrom<PipelineMachine>, persisted: unknown) => void;
  /** Every inspection event of the run's actors (the visualizer's live view listens here). */
  inspect?: (event: InspectionEvent) => void;
}

/**
 * One running pipeline: a supervisor with the seven agents and the orchestrator, its snapshot
 * persisted on every change, its transitions and routed envelopes fanned out to watchers.
 */
export class LiveRun {
  private readonly watchers = new Set<(event: RunEvent) => void>();
  /** Waiting for every envelope handed to the supervisor to be routed (journaled) or refused. */
  private readonly drained = new Set<() => void>();
  private persistTimer: NodeJS.Timeout | undefined;
  private readonly persistNow: () => void;
  private readonly supervisor;
  readonly orchestrator: AnyActorRef;

  constructor(options: LiveRunOptions) {
    const { system, restore } = options;
    const machine = restore
      ? createSupervisorMachine({ ...system, agents: { ...system.agents, ORCHESTRATOR: restoredLogic(pipelineMachine, restore.snapshot) } }, { journal: options.journal })
      : options.machine;
    let orchestrator: AnyActorRef | undefined;
    this.supervisor = createActor(machine, {
      input: nutritionRunInput(options.runId, { ...(options.pipelineTimeoutMs ? { pipelineTimeoutMs: options.pipelineTimeoutMs } : {}), journaledIds: restore?.journaledIds ?? [] }),
      ...(options.clock ? { clock: options.clock } : {}),
      inspect: (event) => {
        options.inspect?.(event);
        if (event.type !== '@xstate.microstep' || event.actorRef !== orchestrator) return;
        for (const t of event._transitions) {
          const target = t.target?.[0];
          if (target) this.notify({ type: 'state', data: { from: String(t.source.path[0]), to: String(target.path[0]), state: String(target.path[0]) } });
        }
      },
    });
    const onRouted = (event: { record: RoutedRecord }) => this.notify({ type: 'message', data: event.record.envelope });
    this.supervisor.on('supervisor.routed', onRouted);
    this.supervisor.on('supervisor.outbound', onRouted);
    // After each of the supervisor's steps, when its bookkeeping says everything is settled.
    this.supervisor.subscribe(() => this.checkDrained());
    this.supervisor.start();
    orchestrator = (this.supervisor.getSnapshot().children as Record<string, AnyActorRef>).ORCHESTRATOR!;
    this.orchestrator = orchestrator;
    this.persistNow = () => {
      this.persistTimer = undefined;
      options.persist(orchestrator.getSnapshot(), orchestrator.getPersistedSnapshot());
    };
    orchestrator.subscribe((snapshot: SnapshotFrom<PipelineMachine>) => {
      options.onChange?.(snapshot);
      this.persistTimer ??= setTimeout(this.persistNow, PERSIST_DELAY_MS);
    });
    if (restore) orchestrator.send({ type: 'pipeline.resume' } satisfies PipelineEvent);
  }

  send(event: PipelineEvent): void {
    this.orchestrator.send(event);
  }

  snapshot(): SnapshotFrom<PipelineMachine> {
    return this.orchestrator.getSnapshot();
  }

  watch(listener: (event: RunEvent) => void): () => void {
    this.watchers.add(listener);
    return () => this.watchers.delete(listener);
  }

  /** Resolves with the first snapshot (the current one included) that satisfies `predicate`. */
  until(predicate: (snapshot: SnapshotFrom<PipelineMachine>) => boolean): Promise<SnapshotFrom<PipelineMachine>> {
    return new Promise((resolve) => {
      if (predicate(this.snapshot())) return resolve(this.snapshot());
      const subscription = this.orchestrator.subscribe((snapshot: SnapshotFrom<PipelineMachine>) => {
        if (!predicate(snapshot)) return;
        subscription.unsubscribe();
        resolve(snapshot);
      });
    });
  }

  /**
   * Resolves once every envelope handed to the supervisor so far has been routed (journaled) or
   * refused, and no agent's output waits for its input to reach the disk.
   */
  quiescent(): Promise<void> {
    if (this.supervisor.getSnapshot().context.ledger.idle()) return Promise.resolve();
    return new Promise((resolve) => this.drained.add(resolve));
  }

  /**
   * Resolves once the envelope `messageId` is in the journal, or once nothing of the run waits
   * for the journal any more (it was refused). Call it in the same tick as the send that hands
   * the envelope over: the journal acknowledges later, never during the send.
   */
  journaled(messageId: string): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        stop();
        resolve();
      };
      const stop = this.watch((event) => {
        if (event.type === 'message' && (event.data as { message_id?: unknown }).message_id === messageId) done();
      });
      void this.quiescent().then(done);
    });
  }

  private checkDrained(): void {
    if (this.drained.size === 0 || !this.supervisor.getSnapshot().context.ledger.idle()) return;
    for (const resolve of this.drained) resolve();
    this.drained.clear();
  }

  stop(): void {
    // The last changes are written before the run goes away.
    if (this.persistTimer) {
      clearTimeout(this.persistTimer);
      this.persistNow();
    }
    this.watchers.clear();
    this.supervisor.stop();
  }

  private notify(event: RunEvent): void {
    for (const watcher of this.watchers) watcher(event);
  }
}
