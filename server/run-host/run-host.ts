import { randomUUID } from 'node:crypto';
import { Admission, DEFAULT_ADMISSION } from './admission.ts';
import type { HostedRun, RunSnapshot } from './hosted-run.ts';
import { RunBuilder } from './run-builder.ts';
import type { DurableRuns, RunHostOptions } from './run-host-options.ts';
import { RunHolds } from './run-holds.ts';
import type { RunHosting } from './run-hosting.ts';
import { recoverRun, reviveRun, type RecoveringHost, type RunSource } from './run-recovery.ts';
import { RunRetirement } from './run-retirement.ts';
import { RunStore } from './run-store.ts';

export type { DurableRuns, RunHostOptions } from './run-host-options.ts';

/**
 * The one host of supervised runs, each keyed by its journal partition (a pipeline run, a
 * trainer session, a delegation tree, ...): builds or reuses a run's supervisor, persists its run
 * actor's snapshot (one store file per run), restores unfinished runs after a restart from an
 * index of them (journal first: a run without a usable snapshot is rebuilt from its journal, one
 * that cannot be rebuilt is marked failed, never stopping the others), stops finished runs and
 * lets runs that wait for their user rest until their user acts (`pin`).
 *
 * It implements `RunHosting` (run-hosting.ts), the interface systems call and other hosts
 * implement; a `HostedRun` is its `RunHandle`.
 *
 * @example
 * const host = await RunHost.open({ system, journal, store, runActor: 'ORCHESTRATOR', durable });
 * const run = host.start({ owner: userId });
 * run.send({ type: 'pipeline.start', envelope });
 * await run.journaled(envelope.message_id); // the id its addressing reads
 * await host.commit(run); // journaled and recorded: tell the client
 */
export class RunHost implements RunHosting<HostedRun> {
  private readonly live = new Map<string, HostedRun>();
  private readonly owners = new Map<string, string>();
  private readonly builder: RunBuilder;
  private readonly runs: RunStore;
  /** Finished or resting runs on their way out of the index (close waits for them). */
  private readonly retirement: RunRetirement;
  /** Resting runs being brought back, so that two callers get the same run. */
  private readonly waking = new Map<string, Promise<HostedRun | undefined>>();
  /** Runs a caller holds (see `pin`): they are not released while held. */
  private readonly holds = new RunHolds();
  /** The runs working now, bounded (admission control). */
  private readonly admission: Admission;
  private spare: HostedRun | undefined;
  private closed = false;

  /** What recovery (run-recovery.ts) may do to this host's runs. */
  private readonly recovering: RecoveringHost;

  private constructor(private readonly options: RunHostOptions) {
    this.builder = new RunBuilder(options, {
      owner: (partition) => this.owners.get(partition),
      persist: (partition, persisted, snapshot, durable) => this.persist(partition, persisted, snapshot, durable),
    });
    this.runs = new RunStore(options.store, options.system.name);
    this.admission = new Admission(`${options.system.name} runs`, { ...DEFAULT_ADMISSION, ...options.admission });
    this.recovering = {
      options,
      runs: this.runs,
      own: (partition, owner) => {
        this.owners.set(partition, owner);
        // Accepted before the restart: it works again whatever the limits.
        this.admission.admit(partition, owner, { force: true });
      },
      build: (partition, from) => this.build(partition, from),
      discard: (partition) => this.discard(partition),
      rests: (snapshot) => this.rests(snapshot),
      retire: (partition) => this.retire(partition),
      holdWhile: (partition, work) => this.holdWhile(partition, work),
      live: (partition) => this.live.get(partition),
      closed: () => this.closed,
      remember: (partition, owner) => void this.owners.set(partition, owner),
    };
    this.retirement = new RunRetirement({
      runs: this.runs,
      closed: () => this.closed,
      live: (partition) => this.live.get(partition),
      owner: (partition) => this.owners.get(partition),
      held: (partition) => this.holds.has(partition),
      rests: (snapshot) => this.rests(snapshot),
      leave: (partition) => this.admission.leave(partition),
      release: (partition) => this.release(partition),
    });
  }

  /** A host of runs that live only while they work (no `durable`): nothing to bring back, so no waiting. */
  static ephemeral(options: Omit<RunHostOptions, 'durable' | 'spare'>): RunHost {
    return new RunHost(options);
  }

  /** Opens the host and brings back every unfinished run (only those: start-up reads their index). */
  static async open(options: RunHostOptions): Promise<RunHost> {
    const host = new RunHost(options);
    if (options.durable)
      for (const entry of await host.runs.unfinished()) await recoverRun(host.recovering, entry, options.durable);
    if (options.spare) host.spare = host.build(randomUUID());
    return host;
  }

  checkAdmission(owner: string): void {
    this.admission.check(owner);
  }

  /** Uses the run built ahead of time (`spare`) when there is one. */
  start(options: { owner: string; partition?: string; recovered?: boolean }): HostedRun {
    if (this.closed) throw new Error('The run host is closed.');
    if (!options.recovered) this.admission.check(options.owner);
    let run = options.partition === undefined ? this.spare : undefined;
    if (run) this.spare = undefined;
    else {
      const partition = options.partition ?? randomUUID();
      if (this.live.has(partition)) throw new Error(`Run ${partition} is running already; wait for it or send to it.`);
      run = this.build(partition);
    }
    this.owners.set(run.partition, options.owner);
    this.admission.admit(run.partition, options.owner, { force: options.recovered === true });
    // Held until `commit`: a quick run must not rest (and be released) before it is recorded.
    this.holds.hold(run.partition);
    return run;
  }

  async commit(run: HostedRun): Promise<void> {
    const owner = this.owners.get(run.partition)!;
    try {
      // Its latest snapshot goes in the same write as its owner; the index entry in parallel
      // (an entry without a record is a run rebuilt from its journal).
      run.flush();
      await Promise.all([
        this.runs.update(run.partition, { partition: run.partition, owner, created_at: new Date().toISOString() }),
        this.runs.markUnfinished({ partition: run.partition, owner }),
      ]);
    } finally {
      this.unhold(run.partition);
    }
    // The next spare is built once this run's first writes are done, so its file does not compete with them.
    if (this.options.spare && !this.closed) this.spare ??= this.build(randomUUID());
  }

  /** After `open`: the unfinished runs it brought back. */
  livePartitions(): string[] {
    return [...this.live.keys()];
  }

  get(partition: string): HostedRun | undefined {
    return this.live.get(partition);
  }

  /**
   * The live run of `partition`, bringing a resting run back from its snapshot (and into the
   * index again); undefined for a run that is over, failed or unknown.
   */
  private wake(partition: string): Promise<HostedRun | undefined> {
    const live = this.live.get(partition);
    if (live || this.closed || !this.options.durable) return Promise.resolve(live);
    let waking = this.waking.get(partition);
    if (!waking) {
      waking = reviveRun(this.recovering, partition).finally(() => this.waking.delete(partition));
      this.waking.set(partition, waking);
    }
    return waking;
  }

  /** Wakes a resting run from its snapshot; held, it is not released as resting meanwhile. */
  async pin(
    partition: string,
    options: { workFor?: string } = {},
  ): Promise<{ run: HostedRun | undefined; unpin: () => void }> {
    const { workFor } = options;
    if (workFor !== undefined && !this.admission.has(partition)) this.admission.check(workFor);
    // Held from this moment, before any await: a run retiring meanwhile is not released.
    const unpin = this.holds.holdOnce(partition, (held) => this.unhold(held));
    try {
      const run = await this.wake(partition);
      if (!run) unpin();
      else if (workFor !== undefined) this.admission.admit(partition, workFor, { force: true });
      return { run, unpin };
    } catch (error) {
      unpin();
      throw error;
    }
  }

  async persisted(run: HostedRun): Promise<void> {
    run.flush();
    await this.runs.flushed(run.partition);
  }

  /** Known for live runs, else read from its record. */
  async ownerOf(partition: string): Promise<string | undefined> {
    return this.owners.get(partition) ?? (await this.runs.record(partition))?.owner;
  }

  async snapshotOf(partition: string): Promise<RunSnapshot | undefined> {
    const live = this.live.get(partition);
    if (live) return live.snapshot();
    const snapshot = (await this.runs.record(partition))?.snapshot;
    return snapshot === undefined || snapshot === null ? undefined : (snapshot as RunSnapshot);
  }

  async failureOf(partition: string): Promise<string | undefined> {
    return (await this.runs.record(partition))?.failure;
  }

  /**
   * Its last changes are written first. A released run is not committed afterwards: its holds
   * are forgotten, and only pins (`holdOnce`) know to let go of nothing after that.
   */
  release(partition: string): void {
    this.discard(partition);
    // A run of an ephemeral host is held from `start` to a `commit` that never comes.
    this.holds.forget(partition);
    // A released run's owner is in its record (a durable run's) or nowhere needed (a turn's).
    this.owners.delete(partition);
  }

  async close(): Promise<void> {
    // Runs finished just now retire before the others stop (their last envelopes still land).
    await this.retirement.settled();
    this.closed = true;
    // Stopping writes each run's last changes (the spare is live too, and writes nothing).
    for (const run of this.live.values()) run.stop();
    this.live.clear();
    await this.retirement.settled();
    await this.runs.settled();
  }

  /** A run's supervisor and agents, live from now on; restored from `from.snapshot` when given, else fresh. */
  private build(partition: string, from: RunSource = {}): HostedRun {
    const run = this.builder.build(partition, from);
    this.live.set(partition, run);
    return run;
  }

  /** Writes an owned run's latest snapshot; a finished or resting run then leaves the index and stops. */
  private persist(partition: string, persisted: unknown, snapshot: RunSnapshot, durable: DurableRuns): void {
    const owner = this.owners.get(partition);
    if (owner === undefined) return;
    const finished = durable.finished(snapshot);
    // The owner with each snapshot: a record written first by a snapshot (a rebuilt run's) names it too.
    void this.runs.update(partition, {
      partition,
      owner,
      snapshot: persisted,
      // Touched before the run was built (restored, woken) or by its build: unknown only for a new run, which has journaled nothing yet.
      journal_seq: this.options.journal.loadedSeq(partition) ?? 0,
      finished,
    });
    if (this.rests(snapshot)) this.retire(partition);
  }

  private rests(snapshot: RunSnapshot): boolean {
    const durable = this.options.durable;
    return durable !== undefined && (durable.finished(snapshot) || durable.resting?.(snapshot) === true);
  }

  /**
   * Runs `work` on a run (a rebuild, a catch-up); throws what it throws at once, and holds the
   * run live while the promise it returns is pending (its later sends must find the run there).
   */
  private holdWhile(partition: string, work: () => void | Promise<void>): void {
    const pending = work();
    if (!pending) return;
    this.holds.hold(partition);
    void pending
      .catch((error: unknown) => console.error(`Run ${partition} could not be brought up to date:`, error))
      .finally(() => this.unhold(partition));
  }

  /** Lets go of a held run; one that rests now (nothing changed while held) may retire. */
  private unhold(partition: string): void {
    if (!this.holds.unhold(partition)) return;
    const run = this.live.get(partition);
    if (run && this.rests(run.snapshot())) this.retire(partition);
  }

  private retire(partition: string): void {
    this.retirement.retire(partition);
  }

  /** Stops and forgets a live run, keeping its owner (it may be built again). */
  private discard(partition: string): void {
    this.admission.leave(partition);
    this.live.get(partition)?.stop();
    this.live.delete(partition);
  }
}
