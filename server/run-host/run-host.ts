import { randomUUID } from 'node:crypto';
import type { InspectionEvent } from 'xstate';
import { createSupervisorMachine, type SupervisorMachine } from '../../machines/runtime/supervisor.ts';
import { addressingOf } from '../../protocol/runtime/envelope-addressing.ts';
import { Admission, DEFAULT_ADMISSION } from './admission.ts';
import { HostedRun, type RunSnapshot } from './hosted-run.ts';
import { restoredLogic } from './restored-logic.ts';
import type { DurableRuns, RunHostOptions } from './run-host-options.ts';
import type { RunRecord } from './run-record.ts';
import { journalOf, recoverRun, tryBuild, type RecoveringHost, type RunSource } from './run-recovery.ts';
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
 * The interface other hosts implement is what systems call: `start`, `commit`, `get`, `pin`,
 * `persisted`, `snapshotOf`, `ownerOf`, `failureOf`, `release`, `close`; a `HostedRun` offers `send`, `snapshot`, `watch`,
 * `until`, `quiescent`, `journaled`.
 *
 * @example
 * const host = await RunHost.open({ system, journal, store, runActor: 'ORCHESTRATOR', durable });
 * const run = host.start({ owner: userId });
 * run.send({ type: 'pipeline.start', envelope });
 * await run.journaled(envelope.message_id); // the id its addressing reads
 * await host.commit(run); // journaled and recorded: tell the client
 */
export class RunHost {
  private readonly live = new Map<string, HostedRun>();
  private readonly owners = new Map<string, string>();
  private readonly machine: SupervisorMachine;
  private readonly runs: RunStore;
  /** Finished or resting runs on their way out of the index (close waits for them). */
  private readonly retiring = new Map<string, Promise<void>>();
  /** Resting runs being brought back, so that two callers get the same run. */
  private readonly waking = new Map<string, Promise<HostedRun | undefined>>();
  /** Runs a caller holds (see `pin`): they are not released while held. */
  private readonly pins = new Map<string, number>();
  /** The runs working now, bounded (admission control). */
  private readonly admission: Admission;
  private spare: HostedRun | undefined;
  private closed = false;

  /** What recovery (run-recovery.ts) may do to this host's runs. */
  private readonly recovering: RecoveringHost;

  private constructor(private readonly options: RunHostOptions) {
    this.machine = createSupervisorMachine(options.system, this.supervisorOptions());
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
    };
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

  /**
   * Throws `OverloadedError` (503) when the host has as many runs working as it takes, or
   * `TooManyRunsError` (429) when `owner` has as many as one owner may; changes nothing. `start`
   * and `pin` with `workFor` check by themselves: a system calls this first only to refuse
   * before doing anything else (reading the store, queueing).
   */
  checkAdmission(owner: string): void {
    this.admission.check(owner);
  }

  /**
   * A new run, or the run of `partition` when given (a session's next turn): owned by `owner`
   * from now on, and working until it rests or ends. Uses the run built ahead of time when there
   * is one. Throws at once, building nothing, when admission refuses it (`checkAdmission`);
   * `recovered` work (accepted before a restart, brought back by its system) counts but is never refused.
   */
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
    this.hold(run.partition);
    return run;
  }

  /**
   * Records `run` as unfinished, so that it survives a restart: call it once the envelope that
   * started it is journaled (`run.journaled(id)`); when it resolves, its client may hear of it.
   */
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

  /** The partitions of the runs live now (after `open`: the unfinished runs it brought back). */
  livePartitions(): string[] {
    return [...this.live.keys()];
  }

  /** The live run of `partition`, if any. */
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
      waking = this.revive(partition).finally(() => this.waking.delete(partition));
      this.waking.set(partition, waking);
    }
    return waking;
  }

  /**
   * Wakes the run and holds it live until `unpin` is called: a caller about to send to a run
   * (a check-in) or watching it pins it, so that it is not released as resting meanwhile. The
   * run is undefined when it is over, failed or unknown. A caller about to give it work names
   * its owner (`workFor`): admission is checked first (throwing as `start` does, waking nothing)
   * and the run counts as working until it rests again.
   */
  async pin(
    partition: string,
    options: { workFor?: string } = {},
  ): Promise<{ run: HostedRun | undefined; unpin: () => void }> {
    const { workFor } = options;
    if (workFor !== undefined && !this.admission.has(partition)) this.admission.check(workFor);
    // Held from this moment, before any await: a run retiring meanwhile is not released.
    this.hold(partition);
    let pinned = true;
    const unpin = () => {
      if (pinned) this.unhold(partition);
      pinned = false;
    };
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

  /**
   * Resolves once the run's latest snapshot is on disk: a caller answers its client after this
   * when what it did (a check-in, a confirmation) must survive a kill -9.
   */
  async persisted(run: HostedRun): Promise<void> {
    run.flush();
    await this.runs.flushed(run.partition);
  }

  /** Who owns the run: known for live runs, else read from its record. */
  async ownerOf(partition: string): Promise<string | undefined> {
    return this.owners.get(partition) ?? (await this.record(partition))?.owner;
  }

  /** The run's current snapshot: the live one, else its last persisted one (a finished run's). */
  async snapshotOf(partition: string): Promise<RunSnapshot | undefined> {
    const live = this.live.get(partition);
    if (live) return live.snapshot();
    const snapshot = (await this.record(partition))?.snapshot;
    return snapshot === undefined || snapshot === null ? undefined : (snapshot as RunSnapshot);
  }

  /** Why the run could not be recovered after a restart, if it could not. */
  async failureOf(partition: string): Promise<string | undefined> {
    return (await this.record(partition))?.failure;
  }

  /** The run's record as last written (writes under way are waited for: a run just released wrote its last snapshot). */
  private record(partition: string): Promise<RunRecord | undefined> {
    return this.runs.record(partition);
  }

  /** Stops a live run that has nothing left to do (its last changes are written first). */
  release(partition: string): void {
    this.discard(partition);
    // A run of an ephemeral host is held from `start` to a `commit` that never comes.
    this.pins.delete(partition);
    // A released run's owner is in its record (a durable run's) or nowhere needed (a turn's).
    this.owners.delete(partition);
  }

  /** Stops every run and waits for their last writes. */
  async close(): Promise<void> {
    // Runs finished just now retire before the others stop (their last envelopes still land).
    await Promise.all(this.retiring.values());
    this.closed = true;
    // Stopping writes each run's last changes (the spare is live too, and writes nothing).
    for (const run of this.live.values()) run.stop();
    this.live.clear();
    await Promise.all(this.retiring.values());
    await this.runs.settled();
  }

  /** What every run's supervisor gets: the journal, and the host's clock for envelopes that expire. */
  private supervisorOptions() {
    const { journal, clock } = this.options;
    return clock ? { journal, now: () => clock.now() } : { journal };
  }

  /** A run's supervisor and agents; restored from `from.snapshot` when given, else fresh. */
  private build(partition: string, from: RunSource = {}): HostedRun {
    const { options } = this;
    options.journal.prepare?.(partition);
    const restore = from.snapshot === undefined ? undefined : { snapshot: from.snapshot };
    const machine = restore
      ? createSupervisorMachine(
          {
            ...options.system,
            agents: {
              ...options.system.agents,
              [options.runActor]: restoredLogic(options.system.agents[options.runActor] as never, restore.snapshot),
            },
          },
          this.supervisorOptions(),
        )
      : this.machine;
    const journaledIds = from.journaledIds ?? [];
    const { durable, inspect, onChange } = options;
    const run = new HostedRun({
      partition,
      machine,
      input: {
        ...(options.runInput?.(partition, journaledIds) ?? { journaledIds }),
        // Pending acks are re-armed from the journal (a system without acks needs none of it).
        ...(options.system.addressing?.ack && from.records ? { journal: from.records } : {}),
      },
      runActor: options.runActor,
      ...(options.clock ? { clock: options.clock } : {}),
      idOf: addressingOf(options.system.addressing).idOf,
      ...(restore && durable?.resume ? { resume: durable.resume } : {}),
      ...(inspect ? { inspect: (event: InspectionEvent) => inspect(partition, event) } : {}),
      onChange: (snapshot) => {
        const owner = this.owners.get(partition);
        if (owner !== undefined) onChange?.(partition, owner, snapshot);
      },
      ...(durable
        ? {
            persist: (persisted: unknown, snapshot: RunSnapshot) =>
              this.persist(partition, persisted, snapshot, durable),
          }
        : {}),
    });
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
    this.hold(partition);
    void pending
      .catch((error: unknown) => console.error(`Run ${partition} could not be brought up to date:`, error))
      .finally(() => this.unhold(partition));
  }

  private hold(partition: string): void {
    this.pins.set(partition, (this.pins.get(partition) ?? 0) + 1);
  }

  /** Lets go of a held run; one that rests now (nothing changed while held) may retire. */
  private unhold(partition: string): void {
    const left = (this.pins.get(partition) ?? 1) - 1;
    if (left > 0) return void this.pins.set(partition, left);
    this.pins.delete(partition);
    const run = this.live.get(partition);
    if (run && this.rests(run.snapshot())) this.retire(partition);
  }

  /**
   * Takes a finished or resting run out of the index once its last envelopes are journaled and
   * its latest snapshot is on disk; then it need not stay live. A run held or moved on meanwhile
   * (its user acted) stays, in the index. Close waits for it.
   */
  private retire(partition: string): void {
    const run = this.live.get(partition);
    if (!run) return;
    // It waits for nobody but its user now: it no longer takes a working slot.
    this.admission.leave(partition);
    if (this.retiring.has(partition) || !this.owners.has(partition)) return;
    const stillRests = () =>
      this.closed || (this.live.get(partition) === run && !this.pins.has(partition) && this.rests(run.snapshot()));
    const flushed = async () => {
      run.flush();
      await this.runs.flushed(partition);
    };
    const retired = (async () => {
      // A closing host has stopped its runs: what they still had in flight will not settle.
      if (!this.closed) await run.quiescent();
      await flushed();
      if (!stillRests()) return;
      const owner = this.owners.get(partition);
      await this.runs.markDone(partition);
      // What changed meanwhile is on disk before the run goes: the record it rests on is its latest.
      await flushed();
      if (this.closed) return;
      if (stillRests()) this.release(partition);
      else if (owner !== undefined) await this.runs.markUnfinished({ partition, owner });
    })()
      .catch((error: unknown) => console.error(`Could not retire run ${partition}:`, error))
      .finally(() => {
        this.retiring.delete(partition);
        // Let go of (or rested again) while this one was under way: it retires now.
        if (!this.closed && this.live.get(partition) === run && !this.pins.has(partition) && this.rests(run.snapshot()))
          this.retire(partition);
      });
    this.retiring.set(partition, retired);
  }

  /** Brings a resting run back from its record: restored from its snapshot, indexed again. */
  private async revive(partition: string): Promise<HostedRun | undefined> {
    const record = await this.record(partition);
    if (
      !record ||
      record.snapshot === undefined ||
      record.snapshot === null ||
      record.finished ||
      record.failure !== undefined
    )
      return undefined;
    // Indexed again while its journal is read: on disk before the run can journal anything.
    const [entries] = await Promise.all([
      this.options.journal.read(partition).catch(() => undefined),
      this.runs.markUnfinished({ partition, owner: record.owner }),
    ]);
    if (this.closed || this.live.has(partition)) return this.live.get(partition);
    // A journal that cannot be read (damaged, found on this first touch): recovery reports the run failed.
    if (!entries) return this.recover({ partition, owner: record.owner });
    this.owners.set(partition, record.owner);
    const { journaledIds, records } = journalOf(this.options.system, entries);
    const run = tryBuild(this.recovering, partition, { snapshot: record.snapshot, journaledIds, records });
    if (run) return run;
    // Its snapshot will not restore: it comes back as after a restart (rebuilt, or failed).
    return this.recover({ partition, owner: record.owner });
  }

  private async recover(entry: { partition: string; owner: string }): Promise<HostedRun | undefined> {
    await recoverRun(this.recovering, entry, this.options.durable!);
    return this.live.get(entry.partition);
  }

  /** Stops and forgets a live run, keeping its owner (it may be built again). */
  private discard(partition: string): void {
    this.admission.leave(partition);
    this.live.get(partition)?.stop();
    this.live.delete(partition);
  }
}
