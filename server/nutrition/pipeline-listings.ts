import type { Collection, Store } from '../../actors/runtime/store.ts';
import { CoalescedWrites } from '../run-host/coalesced-writes.ts';
import type { RunSnapshot } from '../run-host/hosted-run.ts';
import { SETTLED_STATES, statusOf, type PipelineStatus } from './pipeline-view.ts';

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

/** How many runs' last written states are remembered (to skip rewriting an unchanged one). */
const REMEMBERED_STATES = 4096;

/**
 * Each user's list of pipeline runs (`pipelines/<user>`, one document per run): written when a
 * run is created, then when it reaches a settled state (`output_ready`, `paused_physician`,
 * `error`: where it may stop being live), coalesced, and with its check-in counts. A working run's
 * state in between is the live one (`list` takes `live`), so it is not written at every step.
 */
export class PipelineListings {
  /** Keyed `<user>/<run>`. */
  private readonly writes: CoalescedWrites<RunListing>;
  /** The last state written for recent runs (bounded: an old run's is written again, never lost). */
  private readonly states = new Map<string, string>();
  /** Runs whose first listing is not written yet. */
  private readonly creating = new Set<string>();

  constructor(private readonly store: Store) {
    this.writes = new CoalescedWrites<RunListing>((key, changes) => {
      const [userId, runId] = key.split('/') as [string, string];
      return this.of(userId).update(runId, (listing) => ({
        ...(listing as RunListing),
        ...changes,
        updated_at: new Date().toISOString(),
      }));
    });
  }

  /** A run being created: its state changes wait for its first listing. */
  begin(runId: string): void {
    this.creating.add(runId);
  }

  /** A run whose creation failed before its first listing: nothing of it is listed or remembered. */
  abandon(runId: string): void {
    this.creating.delete(runId);
  }

  /** Writes a new run's first listing; resolves once it is on disk. */
  async create(userId: string, runId: string, createdAt: string, snapshot: RunSnapshot): Promise<void> {
    const state = String(snapshot.value);
    this.remember(runId, state);
    this.creating.delete(runId);
    await this.writes.update(`${userId}/${runId}`, {
      pipeline_run_id: runId,
      user_id: userId,
      created_at: createdAt,
      state,
      status: statusOf(snapshot as never),
      checkins: 0,
      last_girth_checkin: 0,
    });
  }

  /** After each change of a run: its listing follows it into each settled state. */
  follow(userId: string, runId: string, snapshot: RunSnapshot): void {
    const state = String(snapshot.value);
    if (this.creating.has(runId) || !SETTLED_STATES.has(state) || this.states.get(runId) === state) return;
    this.remember(runId, state);
    void this.writes.update(`${userId}/${runId}`, { state, status: statusOf(snapshot as never) });
  }

  get(userId: string, runId: string): Promise<RunListing | undefined> {
    return this.of(userId).get(runId);
  }

  update(userId: string, runId: string, changes: Partial<RunListing>): Promise<unknown> {
    return this.writes.update(`${userId}/${runId}`, changes);
  }

  /** The user's runs, newest first; a run's `live` snapshot (while it works) gives its state. */
  async list(userId: string, live: (runId: string) => RunSnapshot | undefined) {
    const listings = await this.of(userId).list();
    return listings
      .sort((a, b) => b.created_at.localeCompare(a.created_at))
      .map(({ pipeline_run_id, state, status, created_at, updated_at }) => {
        const now = live(pipeline_run_id);
        return {
          pipeline_run_id,
          state: now ? String(now.value) : state,
          status: now ? statusOf(now as never) : status,
          created_at,
          updated_at,
        };
      });
  }

  settled(): Promise<void> {
    return this.writes.settled();
  }

  private remember(runId: string, state: string): void {
    this.states.delete(runId);
    this.states.set(runId, state);
    if (this.states.size > REMEMBERED_STATES) this.states.delete(this.states.keys().next().value!);
  }

  private of(userId: string): Collection<RunListing> {
    return this.store.collection(`pipelines/${userId}`);
  }
}
