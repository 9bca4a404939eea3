import { makeEnvelope } from '../../actors/nutrition/envelope-factory.ts';
import type { PipelineEvent } from '../../machines/nutrition/pipeline.ts';
import type { EnvelopeOf } from '../../protocol/nutrition/envelope.ts';
import type { IntakeData } from '../../protocol/nutrition/intake-data.ts';
import type { WeeklyCheckin } from '../../protocol/nutrition/weekly-checkin.ts';
import { ConflictError, NotFoundError } from '../../protocol/runtime/runtime-error.ts';
import { MedicalClearance } from './medical-clearance.ts';
import { PipelineListings } from './pipeline-listings.ts';
import type { RunEvent, RunSnapshot } from '../run-host/hosted-run.ts';
import type { Store } from '../../actors/runtime/store.ts';
import type { RunHandle, RunHosting } from '../run-host/run-hosting.ts';
import { evaluateCheckin } from './pipeline-checkin.ts';
import type { PipelineHost, PipelineHostOpener } from './pipeline-host.ts';
import { awaitsReferralConfirmation, settledForUser } from './pipeline-resting.ts';
import { currentRun, ownRun } from './pipeline-run-access.ts';
import { failedPipelineView, pipelineView, statusOf } from './pipeline-view.ts';

/**
 * The nutrition pipelines of every user on a run host (any `RunHosting`: the embedded one or the
 * one on Restate): starts runs, keeps each user's list, and answers the HTTP routes. A user only
 * ever reaches their own runs; another user's run is "not found". The host persists, restores
 * and rebuilds the runs themselves.
 *
 * @example
 * const runs = await PipelineRuns.open(store, embeddedPipelineHost({ store, journal, brains }));
 */
export class PipelineRuns {
  private readonly clearance: MedicalClearance;
  private readonly listings: PipelineListings;
  private host!: RunHosting;
  private journal!: PipelineHost['messages'];

  private constructor(store: Store) {
    this.clearance = new MedicalClearance(store);
    this.listings = new PipelineListings(store);
  }

  /** Opens the runs on the host `openHost` opens; it continues every run that was not over when the process stopped. */
  static async open(store: Store, openHost: PipelineHostOpener): Promise<PipelineRuns> {
    const runs = new PipelineRuns(store);
    const { host, messages } = await openHost((runId, userId, snapshot) => runs.changed(userId, runId, snapshot));
    runs.host = host;
    runs.journal = messages;
    return runs;
  }

  async create(userId: string, intake: IntakeData) {
    // Over capacity, refused before anything is read or written.
    this.host.checkAdmission(userId);
    await this.clearance.check(userId);
    const run = this.host.start({ owner: userId });
    const runId = run.partition;
    this.listings.begin(runId);
    const now = new Date().toISOString();
    const envelope = makeEnvelope({
      from: 'USER',
      to: 'INTAKE',
      dataType: 'intake_data',
      payload: intake,
      runId,
      idSeed: [runId, 'intake'],
    });
    run.send({ type: 'pipeline.start', envelope } satisfies PipelineEvent);
    // The records are written once the intake is in the journal, so that their disk writes do not
    // hold that first write up. The client hears of the run once all are on disk.
    try {
      await run.journaled(envelope.message_id);
    } catch (error) {
      // Not taken (the run host is unavailable): the run was never acknowledged, so nothing of it is kept.
      this.host.release(runId);
      this.listings.abandon(runId);
      throw error;
    }
    await Promise.all([this.listings.create(userId, runId, now, run.snapshot()), this.host.commit(run)]);
    return { pipeline_run_id: runId, state: String(run.snapshot().value) };
  }

  list(userId: string) {
    return this.listings.list(userId, (runId) => this.host.get(runId)?.snapshot());
  }

  /** Resolves with the run's view once it waits for its user alone or is over (`settledForUser`). */
  async settled(userId: string, runId: string) {
    const { run, unpin } = await currentRun(this.host, userId, runId);
    try {
      if (!run) return await this.view(userId, runId);
      await run.until(settledForUser);
      await run.quiescent();
      return pipelineView(run.snapshot() as never);
    } finally {
      unpin();
    }
  }

  async view(userId: string, runId: string) {
    await ownRun(this.host, userId, runId);
    const failure = await this.host.failureOf(runId);
    if (failure !== undefined) return failedPipelineView(runId, failure);
    const snapshot = await this.host.snapshotOf(runId);
    if (!snapshot) throw new NotFoundError(`Pipeline run ${runId}`);
    return pipelineView(snapshot as never);
  }

  /** Every envelope of the run in journal order. */
  async messages(userId: string, runId: string) {
    await ownRun(this.host, userId, runId);
    return this.journal(runId);
  }

  /**
   * Watches a run: its snapshot now, and its events from now on (none for a run that is over);
   * `settled` resolves once it waits for its user alone (`settledForUser`), or rejects once
   * `signal` is aborted.
   */
  async watch(userId: string, runId: string, listener: (event: RunEvent) => void) {
    await ownRun(this.host, userId, runId);
    const { run, unpin } = await this.host.pin(runId);
    if (run) {
      const stop = run.watch(listener);
      return {
        snapshot: run.snapshot(),
        stop: () => (stop(), unpin()),
        quiescent: () => run.quiescent(),
        settled: (signal: AbortSignal) => run.until(settledForUser, signal),
      };
    }
    const view = await this.view(userId, runId);
    return {
      snapshot: { value: view.state } as RunSnapshot,
      stop: () => undefined,
      quiescent: () => Promise.resolve(),
      settled: (): Promise<unknown> => Promise.resolve(),
    };
  }

  async confirmReferral(userId: string, runId: string) {
    const { run, snapshot, unpin } = await currentRun(this.host, userId, runId, { workFor: userId });
    try {
      return await this.confirm(runId, run, snapshot);
    } finally {
      unpin();
    }
  }

  private async confirm(runId: string, run: RunHandle | undefined, snapshot: RunSnapshot) {
    if (!run || !awaitsReferralConfirmation(snapshot)) {
      throw new ConflictError(
        'not_awaiting_confirmation',
        `Run ${runId} is not paused waiting for you to confirm a referral (state ${String(snapshot.value)}).`,
      );
    }
    run.send({ type: 'pipeline.confirm_referral' } satisfies PipelineEvent);
    // The confirmation is no envelope: the client hears of it once the run's snapshot holds it.
    await this.host.persisted(run);
    return pipelineView(run.snapshot() as never);
  }

  /** §7: evaluates a check-in and answers with the adjustment result once any re-run is done. */
  async checkin(userId: string, runId: string, checkin: WeeklyCheckin): Promise<EnvelopeOf<'adjustment_result'>> {
    const { run, snapshot, unpin } = await currentRun(this.host, userId, runId, { workFor: userId });
    try {
      const { host, listings } = this;
      return await evaluateCheckin({ host, listings, userId, runId, checkin, run, before: snapshot });
    } finally {
      unpin();
    }
  }

  /** The user's medical clearance after an abort (§6.4 step 6). */
  clear(userId: string) {
    return this.clearance.clear(userId);
  }

  /** Whether the run exists and is the user's. */
  async owns(userId: string, runId: string): Promise<boolean> {
    return ownRun(this.host, userId, runId).then(
      () => true,
      (error: unknown) => {
        if (error instanceof NotFoundError) return false;
        throw error;
      },
    );
  }

  /** The state of a run while it is live (the visualizer's live view). */
  liveState(runId: string): string | undefined {
    const run = this.host.get(runId);
    return run ? String(run.snapshot().value) : undefined;
  }

  /** The state of a run as last persisted (a resting or finished run's). */
  async storedState(runId: string): Promise<string | undefined> {
    const snapshot = await this.host.snapshotOf(runId);
    return snapshot ? String(snapshot.value) : undefined;
  }

  /** Stops every run and waits for their last writes. */
  async close() {
    await this.host.close();
    await this.listings.settled();
  }

  /** After each change of an owned run: its listing follows its state, and a medical stop blocks its user. */
  private changed(userId: string, runId: string, snapshot: RunSnapshot): void {
    if (statusOf(snapshot as never) === 'terminated_medical') this.clearance.block(userId, runId);
    this.listings.follow(userId, runId, snapshot);
  }
}
