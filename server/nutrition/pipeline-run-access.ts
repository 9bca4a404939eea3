import { NotFoundError } from '../../protocol/runtime/runtime-error.ts';
import type { RunSnapshot } from '../run-host/hosted-run.ts';
import type { RunHandle, RunHosting } from '../run-host/run-hosting.ts';

/** A run id as `PipelineRuns.create` makes them: anything else is not a run, without asking the store. */
const RUN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Throws "not found" unless the run exists and is the user's: another user's run answers like a
 * missing one.
 *
 * @example
 * await ownRun(host, userId, runId); // then read or change the run
 */
export async function ownRun(host: RunHosting, userId: string, runId: string): Promise<void> {
  // The host knows every run's owner (in memory while live, else from its record).
  const owner = RUN_ID.test(runId) ? await host.ownerOf(runId) : undefined;
  if (owner !== userId) throw new NotFoundError(`Pipeline run ${runId}`);
}

/** The user's run as {@link currentRun} finds it; `unpin` lets the host rest or release it again. */
export interface CurrentRun {
  /** Undefined once the run is over (finished, or failed to recover). */
  run?: RunHandle;
  snapshot: RunSnapshot;
  unpin: () => void;
}

/**
 * The user's run now: live (woken if it rested) while it is not over, with its snapshot (the
 * last one persisted when over). With `workFor`, the caller gives it work: admission applies.
 * Call `unpin` when done, in a `finally`.
 *
 * @example
 * const { run, snapshot, unpin } = await currentRun(host, userId, runId, { workFor: userId });
 */
export async function currentRun(
  host: RunHosting,
  userId: string,
  runId: string,
  work: { workFor?: string } = {},
): Promise<CurrentRun> {
  await ownRun(host, userId, runId);
  const { run, unpin } = await host.pin(runId, work);
  if (run) return { run, snapshot: run.snapshot(), unpin };
  const failure = await host.failureOf(runId);
  const snapshot = failure === undefined ? await host.snapshotOf(runId) : undefined;
  return {
    snapshot: snapshot ?? ({ value: 'error', context: { physician: null, checkin: null } } as RunSnapshot),
    unpin,
  };
}
