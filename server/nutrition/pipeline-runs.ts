import { randomUUID } from 'node:crypto';
import type { InspectionEvent, SnapshotFrom } from 'xstate';
import { makeEnvelope, versionedRunId } from '../../actors/nutrition/envelope-factory.ts';
import type { Journal } from '../../actors/runtime/journal.ts';
import type { Collection, Store } from '../../actors/runtime/store.ts';
import type { AgentBrainLogic } from '../../machines/runtime/agent.ts';
import { nutritionSystem, type NutritionWorker } from '../../machines/nutrition/nutrition-system.ts';
import { createSupervisorMachine, type SupervisorMachine } from '../../machines/runtime/supervisor.ts';
import type { SystemDefinition } from '../../machines/runtime/supervisor-system.ts';
import type { PipelineMachine } from '../../machines/nutrition/pipeline.ts';
import type { EnvelopeOf } from '../../protocol/nutrition/envelope.ts';
import type { IntakeData } from '../../protocol/nutrition/intake-data.ts';
import type { WeeklyCheckin } from '../../protocol/nutrition/weekly-checkin.ts';
import type { RoutedRecord } from '../../protocol/runtime/routing.ts';
import { ConflictError, NotFoundError, RuntimeError, ValidationError } from '../../protocol/runtime/runtime-error.ts';
import { LiveRun, type Clock, type RunEvent } from './live-run.ts';
import { pipelineView, SETTLED_STATES, statusOf, type PipelineStatus } from './pipeline-view.ts';

/** What is kept of a run between restarts. */
interface RunRecord {
  pipeline_run_id: string;
  user_id: string;
  created_at: string;
  updated_at: string;
  state: string;
  status: PipelineStatus;
  /** The orchestrator's persisted snapshot. */
  snapshot: unknown;
  /** Check-ins so far, and the last one that carried waist and hip (§7.2: every 2 weeks). */
  checkins: number;
  last_girth_checkin: number;
}

export interface PipelineRunsOptions {
  store: Store;
  journal: Journal<RoutedRecord>;
  brains: Readonly<Record<NutritionWorker, AgentBrainLogic>>;
  clock?: Clock;
  agentTimeoutMs?: number;
  pipelineTimeoutMs?: number;
  inspect?: (runId: string, event: InspectionEvent) => void;
}

/**
 * The nutrition pipelines of every user: starts runs, persists each orchestrator change,
 * continues unfinished runs after a restart, and answers the HTTP routes. A user only ever
 * reaches their own runs; another user's run is "not found".
 */
export class PipelineRuns {
  private readonly live = new Map<string, LiveRun>();
  private readonly owners = new Map<string, string>();
  private readonly writes = new Map<string, Promise<unknown>>();
  /** Changes waiting for the run's current write to finish, merged. */
  private readonly queued = new Map<string, { changes: Partial<RunRecord>; written: Promise<unknown> }>();
  /** Users whose run was terminated on medical grounds, known before the clearance record is written. */
  private readonly blocked = new Map<string, string>();
  private readonly terminated = new Set<string>();
  private readonly index: Collection<{ run_id: string; user_id: string }>;
  private readonly clearances: Collection<{ required: boolean; run_id: string; at: string }>;

  /** The system and supervisor machine every run shares. */
  private readonly system: SystemDefinition;
  private readonly machine: SupervisorMachine;
  /**
   * A run built ahead of time (its actors spawned, its journal file created) and owned by nobody
   * yet: the next `create` starts it at once instead of building a supervisor and eight actors
   * first, and a new one is built once that run's first writes are done. Nothing of it is
   * persisted; a server stopped with a spare leaves an empty journal file, which reads as empty.
   */
  private spare: { runId: string; run: LiveRun } | undefined;
  private closed = false;

  private constructor(private readonly options: PipelineRunsOptions) {
    this.index = options.store.collection('pipeline-index');
    this.clearances = options.store.collection('medical-clearance');
    this.system = nutritionSystem({ brains: options.brains, ...(options.agentTimeoutMs ? { agentTimeoutMs: options.agentTimeoutMs } : {}) });
    this.machine = createSupervisorMachine(this.system, { journal: options.journal });
  }

  /** Opens the runs and continues every one that was not over when the process stopped. */
  static async open(options: PipelineRunsOptions): Promise<PipelineRuns> {
    const runs = new PipelineRuns(options);
    for (const { run_id: id, user_id } of await runs.index.list()) {
      runs.owners.set(id, user_id);
      const record = await runs.records(user_id).get(id);
      if (!record || record.state === 'error') continue;
      const journaledIds = (await options.journal.read(id)).map((entry) => entry.data.envelope.message_id);
      runs.launch(id, { snapshot: record.snapshot, journaledIds });
    }
    runs.spare = runs.prepareRun();
    return runs;
  }

  async create(userId: string, intake: IntakeData) {
    const clearance = await this.clearances.get(userId);
    const stoppedRun = this.blocked.get(userId) ?? (clearance?.required ? clearance.run_id : undefined);
    if (stoppedRun) {
      throw new ConflictError(
        'medical_clearance_required',
        `Run ${stoppedRun} was stopped on medical grounds. Confirm your medical clearance with POST /clearance before starting a new run.`,
      );
    }
    const { runId, run } = this.spare ?? this.prepareRun();
    this.spare = undefined;
    const now = new Date().toISOString();
    const record: RunRecord = { pipeline_run_id: runId, user_id: userId, created_at: now, updated_at: now, state: 'intake_pending', status: 'running', snapshot: null, checkins: 0, last_girth_checkin: 0 };
    this.owners.set(runId, userId);
    const envelope = makeEnvelope({ from: 'USER', to: 'INTAKE', dataType: 'intake_data', payload: intake, runId, idSeed: [runId, 'intake'] });
    run.send({ type: 'pipeline.start', envelope });
    const intakeJournaled = run.journaled(envelope.message_id);
    // The record is written once the intake is in the journal, so that its disk writes do not
    // hold that first write up; the run's later writes queue behind it. The client hears of the
    // run once both are on disk.
    const created = intakeJournaled
      .then(() => this.records(userId).put(runId, record))
      .then(() => this.index.put(runId, { run_id: runId, user_id: userId }));
    this.writes.set(runId, created);
    await created;
    // The next spare is built once this run's first writes are done, so its file does not compete with them.
    if (!this.closed) this.spare ??= this.prepareRun();
    return { pipeline_run_id: runId, state: String(run.snapshot().value) };
  }

  async list(userId: string) {
    const records = await this.records(userId).list();
    return records
      .sort((a, b) => b.created_at.localeCompare(a.created_at))
      .map(({ pipeline_run_id, state, status, created_at, updated_at }) => ({ pipeline_run_id, state, status, created_at, updated_at }));
  }

  /** Resolves once the run waits for nobody but the user (output_ready, paused_physician, error). */
  async settled(userId: string, runId: string) {
    const run = this.run(userId, runId);
    await run.until((snapshot) => SETTLED_STATES.has(String(snapshot.value)));
    await run.quiescent();
    return pipelineView(run.snapshot());
  }

  view(userId: string, runId: string) {
    return pipelineView(this.run(userId, runId).snapshot());
  }

  /** Every envelope of the run in journal order. */
  async messages(userId: string, runId: string) {
    this.run(userId, runId);
    return (await this.options.journal.read(runId)).map((entry) => entry.data.envelope);
  }

  watch(userId: string, runId: string, listener: (event: RunEvent) => void) {
    const run = this.run(userId, runId);
    return { snapshot: run.snapshot(), stop: run.watch(listener), quiescent: () => run.quiescent() };
  }

  confirmReferral(userId: string, runId: string) {
    const run = this.run(userId, runId);
    const physician = run.snapshot().context.physician;
    if (run.snapshot().value !== 'paused_physician' || physician?.response?.payload.pipeline_action !== 'pause_pending_referral' || physician.confirmed) {
      throw new ConflictError('not_awaiting_confirmation', `Run ${runId} is not paused waiting for you to confirm a referral (state ${String(run.snapshot().value)}).`);
    }
    run.send({ type: 'pipeline.confirm_referral' });
    return pipelineView(run.snapshot());
  }

  /** §7: evaluates a check-in and answers with the adjustment result once any re-run is done. */
  async checkin(userId: string, runId: string, checkin: WeeklyCheckin): Promise<EnvelopeOf<'adjustment_result'>> {
    const run = this.run(userId, runId);
    const before = run.snapshot();
    if (before.value !== 'output_ready' || (before.context.checkin && !before.context.checkin.failure)) {
      throw new ConflictError('not_ready', `Run ${runId} takes check-ins only in output_ready with no check-in under way (it is ${String(before.value)}).`);
    }
    const record = (await this.records(userId).get(runId))!;
    const week = record.checkins + 1;
    const measured = checkin.waist_cm !== null && checkin.hip_cm !== null;
    if (!measured && week - record.last_girth_checkin >= 2) {
      throw new ValidationError('waist_cm and hip_cm are due: they are measured every second week (§7.2).', [
        { path: 'waist_cm', message: 'Required this week (biweekly)' },
        { path: 'hip_cm', message: 'Required this week (biweekly)' },
      ]);
    }
    await this.update(userId, runId, { checkins: week, ...(measured ? { last_girth_checkin: week } : {}) });
    const lastId = before.context.lastAdjustment?.message_id;
    const envelope = makeEnvelope({ from: 'USER', to: 'SCIENTIST', dataType: 'weekly_checkin', payload: checkin, runId: versionedRunId(runId, before.context.version), idSeed: [runId, 'checkin', randomUUID()] });
    run.send({ type: 'pipeline.checkin', envelope });
    const after = await run.until(
      (s) => s.value === 'error' || s.context.checkin?.failure !== undefined || (s.context.checkin === null && s.context.lastAdjustment?.message_id !== lastId),
    );
    if (after.context.lastAdjustment && after.context.lastAdjustment.message_id !== lastId) {
      // The answer leaves the runtime only once it is in the journal (the output-commit rule).
      await run.quiescent();
      return after.context.lastAdjustment;
    }
    throw new RuntimeError('checkin_failed', `The check-in could not be evaluated: ${after.context.checkin?.failure ?? after.context.error?.details}. Try again.`, 503);
  }

  /** The user's medical clearance after an abort (§6.4 step 6). */
  async clear(userId: string) {
    const clearance = await this.clearances.get(userId);
    await Promise.all(this.writes.values());
    await this.clearances.put(userId, { required: false, run_id: clearance?.run_id ?? '', at: new Date().toISOString() });
    this.blocked.delete(userId);
    return { medical_clearance: 'confirmed', blocked: false };
  }

  /** Stops every run and waits for their last snapshots to be written. */
  async close() {
    this.closed = true;
    for (const run of this.live.values()) run.stop();
    this.live.clear();
    await Promise.all(this.writes.values());
  }

  private run(userId: string, runId: string): LiveRun {
    const run = this.owners.get(runId) === userId ? this.live.get(runId) : undefined;
    if (!run) throw new NotFoundError(`Pipeline run ${runId}`);
    return run;
  }

  private records(userId: string): Collection<RunRecord> {
    return this.options.store.collection(`pipelines/${userId}`);
  }

  /** A new run waiting for its intake: its actors spawned, its journal file created meanwhile. */
  private prepareRun(): { runId: string; run: LiveRun } {
    const runId = randomUUID();
    this.options.journal.prepare?.(runId);
    return { runId, run: this.launch(runId) };
  }

  private launch(runId: string, restore?: { snapshot: unknown; journaledIds: string[] }): LiveRun {
    const { options } = this;
    // A run built ahead of time has no owner until `create` gives it one, and nothing to write before.
    const owner = () => this.owners.get(runId);
    const run = new LiveRun({
      runId,
      system: this.system,
      machine: this.machine,
      journal: options.journal,
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.pipelineTimeoutMs ? { pipelineTimeoutMs: options.pipelineTimeoutMs } : {}),
      ...(restore ? { restore } : {}),
      ...(options.inspect ? { inspect: (event: InspectionEvent) => options.inspect!(runId, event) } : {}),
      onChange: (snapshot) => {
        const userId = owner();
        if (userId) this.noteTermination(userId, runId, snapshot);
      },
      persist: (snapshot, persisted) => {
        const userId = owner();
        if (userId) void this.persist(userId, runId, snapshot, persisted);
      },
    });
    this.live.set(runId, run);
    return run;
  }

  /** §6.4 step 6: from the moment a run is terminated on medical grounds, no new run until clearance. */
  private noteTermination(userId: string, runId: string, snapshot: SnapshotFrom<PipelineMachine>) {
    if (statusOf(snapshot) !== 'terminated_medical' || this.terminated.has(runId)) return;
    this.terminated.add(runId);
    this.blocked.set(userId, runId);
    const previous = this.writes.get(runId) ?? Promise.resolve();
    const written = previous.catch(() => undefined).then(() => this.clearances.put(userId, { required: true, run_id: runId, at: new Date().toISOString() }));
    written.catch((error: unknown) => console.error(`Could not record the medical block of run ${runId}:`, error));
    this.writes.set(runId, written);
  }

  /** Writes the latest snapshot; writes of one run never overlap, the last one wins. */
  private persist(userId: string, runId: string, snapshot: SnapshotFrom<PipelineMachine>, persisted: unknown) {
    return this.update(userId, runId, { state: String(snapshot.value), status: statusOf(snapshot), snapshot: persisted });
  }

  /**
   * Merges `changes` into the run's record. Writes of one run never overlap: changes that arrive
   * while a write is under way are merged and written together after it (the latest wins), so a
   * burst of transitions costs one or two writes, not one each.
   */
  private update(userId: string, runId: string, changes: Partial<RunRecord>): Promise<unknown> {
    const queued = this.queued.get(runId);
    if (queued) {
      Object.assign(queued.changes, changes);
      return queued.written;
    }
    const entry = { changes: { ...changes }, written: Promise.resolve() as Promise<unknown> };
    const previous = this.writes.get(runId) ?? Promise.resolve();
    entry.written = previous
      .catch(() => undefined)
      .then(() => {
        this.queued.delete(runId);
        return this.records(userId).update(runId, (record) => ({ ...(record as RunRecord), ...entry.changes, updated_at: new Date().toISOString() }));
      });
    // A failed write is logged, never thrown into an actor subscription; the next one rewrites the whole record.
    entry.written.catch((error: unknown) => console.error(`Could not persist run ${runId}:`, error));
    this.queued.set(runId, entry);
    this.writes.set(runId, entry.written);
    return entry.written;
  }

}
