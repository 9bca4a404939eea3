import type { Collection, Store } from '../../actors/runtime/store.ts';
import { ConflictError } from '../../protocol/runtime/runtime-error.ts';

/**
 * §6.4 step 6: from the moment a user's run is terminated on medical grounds, no new run until
 * the user confirms their medical clearance. Known in memory at once, written per user in order.
 */
export class MedicalClearance {
  /** Users whose run was terminated, known before the clearance record is written. */
  private readonly blocked = new Map<string, string>();
  /** Each user's block writes, in order (a clearance waits for them). */
  private readonly writes = new Map<string, Promise<void>>();
  private readonly terminated = new Set<string>();
  private readonly clearances: Collection<{ required: boolean; run_id: string; at: string }>;

  constructor(store: Store) {
    this.clearances = store.collection('medical-clearance');
  }

  /** Throws 409 `medical_clearance_required` while the user is blocked. */
  async check(userId: string): Promise<void> {
    const clearance = await this.clearances.get(userId);
    const stoppedRun = this.blocked.get(userId) ?? (clearance?.required ? clearance.run_id : undefined);
    if (stoppedRun) {
      throw new ConflictError(
        'medical_clearance_required',
        `Run ${stoppedRun} was stopped on medical grounds. Confirm your medical clearance with POST /clearance before starting a new run.`,
      );
    }
  }

  /** Blocks the user of a run terminated on medical grounds (once per run). */
  block(userId: string, runId: string): void {
    if (this.terminated.has(runId)) return;
    this.terminated.add(runId);
    this.blocked.set(userId, runId);
    const written = (this.writes.get(userId) ?? Promise.resolve())
      .then(() => this.clearances.put(userId, { required: true, run_id: runId, at: new Date().toISOString() }))
      .catch((error: unknown) => console.error(`Could not record the medical block of run ${runId}:`, error));
    this.writes.set(userId, written);
  }

  /** The user's medical clearance after an abort. */
  async clear(userId: string) {
    await this.writes.get(userId);
    const clearance = await this.clearances.get(userId);
    await this.clearances.put(userId, {
      required: false,
      run_id: clearance?.run_id ?? '',
      at: new Date().toISOString(),
    });
    this.blocked.delete(userId);
    return { medical_clearance: 'confirmed', blocked: false };
  }
}
