import { randomUUID } from 'node:crypto';
import type { InspectionEvent } from 'xstate';
import { makeEnvelope, versionedRunId } from '../../actors/nutrition/envelope-factory.ts';
import type { ServiceClock } from '../../actors/runtime/clock.ts';
import type { Journal } from '../../actors/runtime/journal.ts';
import type { Store } from '../../actors/runtime/store.ts';
import type { AgentBrainLogic } from '../../machines/runtime/agent.ts';
import { nutritionRunInput, nutritionSystem, type NutritionWorker } from '../../machines/nutrition/nutrition-system.ts';
import type { PipelineEvent } from '../../machines/nutrition/pipeline.ts';
import type { EnvelopeOf, NutritionEnvelope } from '../../protocol/nutrition/envelope.ts';
import type { IntakeData } from '../../protocol/nutrition/intake-data.ts';
import type { WeeklyCheckin } from '../../protocol/nutrition/weekly-checkin.ts';
import type { RoutedRecord } from '../../protocol/runtime/routing.ts';
import { ConflictError, NotFoundError, RuntimeError, ValidationError } from '../../protocol/runtime/runtime-error.ts';
import { MedicalClearance } from './medical-clearance.ts';
import { PipelineListings } from './pipeline-listings.ts';
import type { HostedRun, RunEvent, RunSnapshot } from '../run-host/hosted-run.ts';
import { RunHost, type RunHostOptions } from '../run-host/run-host.ts';
import { adoptLegacyRuns } from './legacy-runs.ts';
import { catchUpPipeline, rebuildPipeline } from './pipeline-rebuild.ts';
import { failedPipelineView, pipelineView, SETTLED_STATES, statusOf } from './pipeline-view.ts';

/** A run id as `create` makes them: anything else is not a run, without asking the store. */
const RUN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Whether a run waits for its user alone: no agent works (nothing in flight), no check-in is
 * under way, and it is in `output_ready` or paused for a referral the user must confirm (the
 * pipeline timeout is off in both). A run paused while the PHYSICIAN still works does not rest.
 */
function restsForUser(snapshot: RunSnapshot): boolean {
  const { context } = snapshot;
  if (Object.keys(context.inFlight).length > 0) return false;
  if (context.checkin !== null && context.checkin.failure === undefined) return false;
  if (snapshot.value === 'output_ready') return true;
  const physician = context.physician;
  return (
    snapshot.value === 'paused_physician' &&
    physician?.response?.payload.pipeline_action === 'pause_pending_referral' &&
    !physician.confirmed
  );
}

export interface PipelineRunsOptions {
  store: Store;
  journal: Journal<RoutedRecord>;
  brains: Readonly<Record<NutritionWorker, AgentBrainLogic>>;
  clock?: ServiceClock;
  agentTimeoutMs?: number;
  pipelineTimeoutMs?: number;
  /** How many runs work at once (the run host's defaults where absent). */
  admission?: RunHostOptions['admission'];
  inspect?: (runId: string, event: InspectionEvent) => void;
}

/**
 * The nutrition pipelines of every user on the run host: starts runs, keeps each user's list,
 * and answers the HTTP routes. A user only ever reaches their own runs; another user's run is
 * "not found". The host persists, restores and rebuilds the runs themselves.
 */
export class PipelineRuns {
  private readonly clearance: MedicalClearance;
  private readonly listings: PipelineListings;
  private host!: RunHost;

  private constructor(private readonly options: PipelineRunsOptions) {
    this.clearance = new MedicalClearance(options.store);
    this.listings = new PipelineListings(options.store);
  }

  /** Opens the runs; the host continues every one that was not over when the process stopped. */
  static async open(options: PipelineRunsOptions): Promise<PipelineRuns> {
    const runs = new PipelineRuns(options);
    await adoptLegacyRuns(options.store, options.journal);
    runs.host = await RunHost.open({
      system: nutritionSystem({
        brains: options.brains,
        ...(options.agentTimeoutMs ? { agentTimeoutMs: options.agentTimeoutMs } : {}),
      }),
      journal: options.journal,
      store: options.store,
      runActor: 'ORCHESTRATOR',
      runInput: (runId, journaledIds) =>
        nutritionRunInput(runId, {
          ...(options.pipelineTimeoutMs ? { pipelineTimeoutMs: options.pipelineTimeoutMs } : {}),
          journaledIds,
        }),
      durable: {
        finished: (snapshot) => snapshot.value === 'error',
        // Waiting for the user's check-in or referral confirmation: no agent works, no timer runs.
        resting: restsForUser,
        resume: { type: 'pipeline.resume' } satisfies PipelineEvent,
        rebuild: rebuildPipeline,
        catchUp: catchUpPipeline,
      },
      spare: true,
      ...(options.admission ? { admission: options.admission } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.inspect ? { inspect: options.inspect } : {}),
      onChange: (runId, userId, snapshot) => runs.changed(userId, runId, snapshot),
    });
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
    await run.journaled(envelope.message_id);
    await Promise.all([this.listings.create(userId, runId, now, run.snapshot()), this.host.commit(run)]);
    return { pipeline_run_id: runId, state: String(run.snapshot().value) };
  }

  list(userId: string) {
    return this.listings.list(userId, (runId) => this.host.get(runId)?.snapshot());
  }

  /** Resolves once the run waits for nobody but the user (output_ready, paused_physician, error). */
  async settled(userId: string, runId: string) {
    const { run, unpin } = await this.current(userId, runId);
    try {
      if (!run) return await this.view(userId, runId);
      await run.until((snapshot) => SETTLED_STATES.has(String(snapshot.value)));
      await run.quiescent();
      return pipelineView(run.snapshot() as never);
    } finally {
      unpin();
    }
  }

  async view(userId: string, runId: string) {
    await this.own(userId, runId);
    const failure = await this.host.failureOf(runId);
    if (failure !== undefined) return failedPipelineView(runId, failure);
    const snapshot = await this.host.snapshotOf(runId);
    if (!snapshot) throw new NotFoundError(`Pipeline run ${runId}`);
    return pipelineView(snapshot as never);
  }

  /** Every envelope of the run in journal order. */
  async messages(userId: string, runId: string) {
    await this.own(userId, runId);
    // Its journal holds the pipeline's envelopes (spec 000 §2), which the supervisor checked.
    return (await this.options.journal.read(runId)).map((entry) => entry.data.envelope as NutritionEnvelope);
  }

  /** Watches a run: its snapshot now, and its events from now on (none for a run that is over). */
  async watch(userId: string, runId: string, listener: (event: RunEvent) => void) {
    await this.own(userId, runId);
    const { run, unpin } = await this.host.pin(runId);
    if (run) {
      const stop = run.watch(listener);
      return { snapshot: run.snapshot(), stop: () => (stop(), unpin()), quiescent: () => run.quiescent() };
    }
    const view = await this.view(userId, runId);
    return {
      snapshot: { value: view.state } as RunSnapshot,
      stop: () => undefined,
      quiescent: () => Promise.resolve(),
    };
  }

  async confirmReferral(userId: string, runId: string) {
    const { run, snapshot, unpin } = await this.current(userId, runId, { workFor: userId });
    try {
      return await this.confirm(runId, run, snapshot);
    } finally {
      unpin();
    }
  }

  private async confirm(runId: string, run: HostedRun | undefined, snapshot: RunSnapshot) {
    const physician = snapshot.context.physician;
    if (
      !run ||
      snapshot.value !== 'paused_physician' ||
      physician?.response?.payload.pipeline_action !== 'pause_pending_referral' ||
      physician.confirmed
    ) {
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
    const { run, snapshot, unpin } = await this.current(userId, runId, { workFor: userId });
    try {
      return await this.evaluate(userId, runId, checkin, run, snapshot);
    } finally {
      unpin();
    }
  }

  private async evaluate(
    userId: string,
    runId: string,
    checkin: WeeklyCheckin,
    run: HostedRun | undefined,
    before: RunSnapshot,
  ): Promise<EnvelopeOf<'adjustment_result'>> {
    if (!run || before.value !== 'output_ready' || (before.context.checkin && !before.context.checkin.failure)) {
      throw new ConflictError(
        'not_ready',
        `Run ${runId} takes check-ins only in output_ready with no check-in under way (it is ${String(before.value)}).`,
      );
    }
    const listing = (await this.listings.get(userId, runId))!;
    const week = listing.checkins + 1;
    const measured = checkin.waist_cm !== null && checkin.hip_cm !== null;
    if (!measured && week - listing.last_girth_checkin >= 2) {
      throw new ValidationError('waist_cm and hip_cm are due: they are measured every second week (§7.2).', [
        { path: 'waist_cm', message: 'Required this week (biweekly)' },
        { path: 'hip_cm', message: 'Required this week (biweekly)' },
      ]);
    }
    await this.listings.update(userId, runId, { checkins: week, ...(measured ? { last_girth_checkin: week } : {}) });
    const lastId = before.context.lastAdjustment?.message_id;
    const envelope = makeEnvelope({
      from: 'USER',
      to: 'SCIENTIST',
      dataType: 'weekly_checkin',
      payload: checkin,
      runId: versionedRunId(runId, before.context.version),
      idSeed: [runId, 'checkin', randomUUID()],
    });
    run.send({ type: 'pipeline.checkin', envelope } satisfies PipelineEvent);
    const after = await run.until(
      (s) =>
        s.value === 'error' ||
        s.context.checkin?.failure !== undefined ||
        (s.context.checkin === null && s.context.lastAdjustment?.message_id !== lastId),
    );
    if (after.context.lastAdjustment && after.context.lastAdjustment.message_id !== lastId) {
      // The answer leaves the runtime only once it is in the journal (the output-commit rule),
      // and the run's snapshot holds it (so a restart does not take the run back before it).
      await run.quiescent();
      await this.host.persisted(run);
      return after.context.lastAdjustment;
    }
    throw new RuntimeError(
      'checkin_failed',
      `The check-in could not be evaluated: ${after.context.checkin?.failure ?? after.context.error?.details}. Try again.`,
      503,
    );
  }

  /** The user's medical clearance after an abort (§6.4 step 6). */
  clear(userId: string) {
    return this.clearance.clear(userId);
  }

  /** Whether the run exists and is the user's. */
  async owns(userId: string, runId: string): Promise<boolean> {
    return this.own(userId, runId).then(
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

  /** Throws "not found" unless the run exists and is the user's. */
  private async own(userId: string, runId: string): Promise<void> {
    // The host knows every run's owner (in memory while live, else from its record).
    const owner = RUN_ID.test(runId) ? await this.host.ownerOf(runId) : undefined;
    if (owner !== userId) throw new NotFoundError(`Pipeline run ${runId}`);
  }

  /**
   * The user's run now: live (woken if it rested) while it is not over, with its snapshot (the
   * last one persisted when over). With `workFor`, the caller gives it work: admission applies.
   */
  private async current(
    userId: string,
    runId: string,
    work: { workFor?: string } = {},
  ): Promise<{ run?: HostedRun; snapshot: RunSnapshot; unpin: () => void }> {
    await this.own(userId, runId);
    const { run, unpin } = await this.host.pin(runId, work);
    if (run) return { run, snapshot: run.snapshot(), unpin };
    const failure = await this.host.failureOf(runId);
    const snapshot = failure === undefined ? await this.host.snapshotOf(runId) : undefined;
    return {
      snapshot: snapshot ?? ({ value: 'error', context: { physician: null, checkin: null } } as RunSnapshot),
      unpin,
    };
  }

  /** After each change of an owned run: its listing follows its state, and a medical stop blocks its user. */
  private changed(userId: string, runId: string, snapshot: RunSnapshot): void {
    if (statusOf(snapshot as never) === 'terminated_medical') this.clearance.block(userId, runId);
    this.listings.follow(userId, runId, snapshot);
  }
}
