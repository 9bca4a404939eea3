import type { Collection, Store } from '../../actors/runtime/store.ts';
import { CoalescedWrites } from '../run-host/coalesced-writes.ts';
import type { RunSnapshot } from '../run-host/hosted-run.ts';
import { statusOf, type PipelineStatus } from './pipeline-view.ts';

/** What a user's list of runs keeps of each (the run's snapshot is the host's, in its own file). */
export interface RunListing {
  pipeline_run_id: string;
  user_id: string;
  created_at: string;
  updated_at: string;
  state: string;
  status: PipelineStatus;
  /** Check-ins so far, and the last one that carried waist and hip (§7.2: every 2 weeks). */
  checkins: number;
  last_girth_checkin: number;
}

/**
 * Each user's list of pipeline runs (`pipelines/<user>`): written when a run is created, then
 * whenever its state changes (coalesced), and with its check-in counts.
 */
export class PipelineListings {
  private readonly writes: CoalescedWrites<RunListing>;
  /** The user of each run written here since start-up. */
  private readonly users = new Map<string, string>();
  /** The last state each run's listing was written with. */
  private readonly states = new Map<string, string>();
  /** Runs whose first listing is not written yet. */
  private readonly creating = new Set<string>();

  constructor(private readonly store: Store) {
    this.writes = new CoalescedWrites<RunListing>((runId, changes) =>
      this.of(this.users.get(runId)!).update(runId, (listing) => ({
        ...(listing as RunListing),
        ...changes,
        updated_at: new Date().toISOString(),
      })),
    );
  }

  /** A run being created: its state changes wait for its first listing. */
  begin(userId: string, runId: string): void {
    this.users.set(runId, userId);
    this.creating.add(runId);
  }

  /** Writes a new run's first listing; resolves once it is on disk. */
  async create(userId: string, runId: string, createdAt: string, snapshot: RunSnapshot): Promise<void> {
    const state = String(snapshot.value);
    this.states.set(runId, state);
    this.creating.delete(runId);
    await this.writes.update(runId, {
      pipeline_run_id: runId,
      user_id: userId,
      created_at: createdAt,
      state,
      status: statusOf(snapshot as never),
      checkins: 0,
      last_girth_checkin: 0,
    });
  }

  /** After each change of a run: its listing follows its state. */
  follow(userId: string, runId: string, snapshot: RunSnapshot): void {
    this.users.set(runId, userId);
    const state = String(snapshot.value);
    if (this.creating.has(runId) || this.states.get(runId) === state) return;
    this.states.set(runId, state);
    void this.writes.update(runId, { state, status: statusOf(snapshot as never) });
  }

  get(userId: string, runId: string): Promise<RunListing | undefined> {
    return this.of(userId).get(runId);
  }

  update(userId: string, runId: string, changes: Partial<RunListing>): Promise<unknown> {
    this.users.set(runId, userId);
    return this.writes.update(runId, changes);
  }

  /** The user's runs, newest first. */
  async list(userId: string) {
    const listings = await this.of(userId).list();
    return listings
      .sort((a, b) => b.created_at.localeCompare(a.created_at))
      .map(({ pipeline_run_id, state, status, created_at, updated_at }) => ({
        pipeline_run_id,
        state,
        status,
        created_at,
        updated_at,
      }));
  }

  settled(): Promise<void> {
    return this.writes.settled();
  }

  private of(userId: string): Collection<RunListing> {
    return this.store.collection(`pipelines/${userId}`);
  }
}
