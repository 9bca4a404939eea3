import { randomUUID } from 'node:crypto';
import type { Store } from '../../actors/runtime/store.ts';
import { addressingOf } from '../../protocol/runtime/envelope-addressing.ts';
import type { SystemDefinition } from '../../machines/runtime/supervisor-system.ts';
import { Admission, DEFAULT_ADMISSION, type AdmissionLimits } from '../run-host/admission.ts';
import type { RunSnapshot } from '../run-host/hosted-run.ts';
import { RunHolds } from '../run-host/run-holds.ts';
import type { RunHosting } from '../run-host/run-hosting.ts';
import { RunStore } from '../run-host/run-store.ts';
import type { IngressRetry } from './ingress-post.ts';
import { RemoteRun } from './remote-run.ts';

/** How old a live run's last read may be for a caller that reads it (`snapshotOf`) to take it as is. */
const READ_AGAIN_MS = 100;

export interface RestateRunHostOptions {
  ingressUrl: string;
  /** The system's name (its objects are `<name>-host`) and addressing (the id of its envelopes). */
  system: Pick<SystemDefinition, 'name' | 'addressing'>;
  store: Store;
  admission?: Partial<AdmissionLimits>;
  /** Every change seen of an owned run's actor. */
  onChange?: (partition: string, owner: string, snapshot: RunSnapshot) => void;
  /** Whether a run rests (its user alone may act) or is over: it then takes no working slot and is let go. */
  rests?: (snapshot: RunSnapshot) => boolean;
  /** Whether a run is over: `pin` gives no run for it (its snapshot still answers). */
  finished?: (snapshot: RunSnapshot) => boolean;
  retry?: IngressRetry;
}

/**
 * The run host whose runs are Restate virtual objects (`runHostServices` serves them): the same
 * interface as the embedded `RunHost`. The run itself (supervisor, statecharts, journal, timers)
 * lives in its object; this process keeps who owns which run (one store record per run) and
 * the index of working runs, admission, and a `RemoteRun` for each run that works or that a
 * caller holds. A working run is read on its own (`track`) until it rests, so that its owner's
 * listing and admission follow it though nobody asks; a run nobody holds that rests is let go,
 * and a run only read (`snapshotOf`, `messagesOf`) is never kept.
 *
 * @example
 * const host = await RestateRunHost.open({ ingressUrl, system, store, rests });
 * const run = host.start({ owner: userId });
 */
export class RestateRunHost implements RunHosting<RemoteRun> {
  private readonly live = new Map<string, RemoteRun>();
  private readonly owners = new Map<string, string>();
  private readonly holds = new RunHolds();
  private readonly runs: RunStore;
  private readonly admission: Admission;
  private readonly idOf: (envelope: unknown) => string | undefined;
  /** Index removals under way (close waits for them). */
  private readonly indexing = new Set<Promise<unknown>>();

  constructor(private readonly options: RestateRunHostOptions) {
    this.runs = new RunStore(options.store, options.system.name);
    // A fixed bound: the runs compute in Restate's service processes, not on this process's loop.
    this.admission = new Admission(`${options.system.name} runs`, {
      ...DEFAULT_ADMISSION,
      ...options.admission,
      loopDelayTargetMs: 0,
    });
    this.idOf = addressingOf(options.system.addressing).idOf;
  }

  /** A host that tracks again every run that was working when the process stopped (its object went on meanwhile). */
  static async open(options: RestateRunHostOptions): Promise<RestateRunHost> {
    const host = new RestateRunHost(options);
    for (const { partition, owner } of await host.runs.unfinished()) host.work(partition, owner, true);
    return host;
  }

  checkAdmission(owner: string): void {
    this.admission.check(owner);
  }

  start(options: { owner: string; partition?: string; recovered?: boolean }): RemoteRun {
    if (!options.recovered) this.admission.check(options.owner);
    const partition = options.partition ?? randomUUID();
    // Held until `commit`: a quick run must not be let go before it is recorded.
    this.holds.hold(partition);
    return this.work(partition, options.owner, options.recovered === true);
  }

  async commit(run: RemoteRun): Promise<void> {
    const owner = this.owners.get(run.partition)!;
    try {
      await Promise.all([
        this.runs.update(run.partition, { partition: run.partition, owner, created_at: new Date().toISOString() }),
        this.runs.markUnfinished({ partition: run.partition, owner }),
      ]);
    } finally {
      this.unhold(run.partition);
    }
  }

  livePartitions(): string[] {
    return [...this.live.keys()];
  }

  get(partition: string): RemoteRun | undefined {
    return this.live.get(partition);
  }

  async pin(partition: string, options: { workFor?: string } = {}) {
    const { workFor } = options;
    if (workFor !== undefined && !this.admission.has(partition)) this.admission.check(workFor);
    const owner = await this.ownerOf(partition);
    if (owner === undefined) return { run: undefined, unpin: () => undefined };
    const unpin = this.holds.holdOnce(partition, (held) => this.unhold(held));
    try {
      const run = this.remote(partition, owner);
      await run.refresh();
      if (this.options.finished?.(run.snapshot())) {
        unpin();
        return { run: undefined, unpin };
      }
      if (workFor !== undefined) {
        this.work(partition, owner, true);
        await this.runs.markUnfinished({ partition, owner });
      }
      return { run, unpin };
    } catch (error) {
      unpin();
      throw error;
    }
  }

  /** Restate committed the run's state when it answered the run's last send. */
  persisted(run: RemoteRun): Promise<void> {
    return run.delivered();
  }

  async ownerOf(partition: string): Promise<string | undefined> {
    return this.owners.get(partition) ?? (await this.runs.record(partition))?.owner;
  }

  async snapshotOf(partition: string): Promise<RunSnapshot | undefined> {
    const run = await this.read(partition);
    return run?.known ? run.snapshot() : undefined;
  }

  /** A run on Restate is never rebuilt by this process, so never fails to be. */
  async failureOf(): Promise<string | undefined> {
    return undefined;
  }

  /** Every envelope of the run's journal (its object's state). */
  async messagesOf(partition: string): Promise<unknown[]> {
    return (await this.read(partition))?.messages() ?? [];
  }

  release(partition: string): void {
    this.admission.leave(partition);
    this.holds.forget(partition);
    this.live.get(partition)?.stop();
    this.live.delete(partition);
    this.owners.delete(partition);
  }

  async close(): Promise<void> {
    for (const partition of [...this.live.keys()]) this.release(partition);
    await Promise.allSettled([...this.indexing]);
    await this.runs.settled();
  }

  /** The run read now: the live one (its watchers hear what changed), else one read once and not kept. */
  private async read(partition: string): Promise<RemoteRun | undefined> {
    const owner = await this.ownerOf(partition);
    if (owner === undefined) return undefined;
    const live = this.live.get(partition);
    const run = live ?? this.remoteRun(partition);
    // A live run read a moment ago (its host tracks it) answers as read: the state may change any moment anyway.
    await run.refresh(live ? READ_AGAIN_MS : 0);
    return run;
  }

  /** Counts the run as working for `owner` and tracks it until it rests. */
  private work(partition: string, owner: string, force: boolean): RemoteRun {
    this.admission.admit(partition, owner, { force });
    const run = this.remote(partition, owner);
    run.track(true);
    return run;
  }

  /** A working run that rests leaves admission and the index; let go once nobody holds it. */
  private changed(partition: string, snapshot: RunSnapshot): void {
    const owner = this.owners.get(partition);
    if (owner !== undefined) this.options.onChange?.(partition, owner, snapshot);
    if (!this.options.rests?.(snapshot)) return;
    this.live.get(partition)?.track(false);
    if (this.admission.has(partition)) {
      this.admission.leave(partition);
      const done = this.runs.markDone(partition).finally(() => this.indexing.delete(done));
      this.indexing.add(done);
    }
    if (!this.holds.has(partition)) this.release(partition);
  }

  private unhold(partition: string): void {
    if (!this.holds.unhold(partition) || this.admission.has(partition)) return;
    this.release(partition);
  }

  /** The live run of `partition`, made live for `owner` when it is not. */
  private remote(partition: string, owner: string): RemoteRun {
    this.owners.set(partition, owner);
    let run = this.live.get(partition);
    if (!run) {
      run = this.remoteRun(partition, (snapshot) => this.changed(partition, snapshot));
      this.live.set(partition, run);
    }
    return run;
  }

  private remoteRun(partition: string, onState?: (snapshot: RunSnapshot) => void): RemoteRun {
    const { ingressUrl, system, retry } = this.options;
    return new RemoteRun({
      ingressUrl,
      system: system.name,
      partition,
      idOf: this.idOf,
      ...(onState ? { onState } : {}),
      ...(retry ? { retry } : {}),
    });
  }
}
