import { unfinishedWork } from '../../machines/nutrition/pipeline-context.ts';
import type { RunSnapshot } from '../run-host/hosted-run.ts';

/**
 * Whether the run is paused for a referral its user has not confirmed yet: the PHYSICIAN asked
 * for one (`pause_pending_referral`), and only the user's `confirm-referral` moves it on.
 */
export function awaitsReferralConfirmation(snapshot: RunSnapshot): boolean {
  const physician = snapshot.context.physician;
  return (
    snapshot.value === 'paused_physician' &&
    physician?.response?.payload.pipeline_action === 'pause_pending_referral' &&
    !physician.confirmed
  );
}

/**
 * Whether a run waits for its user alone: no agent works (nothing in flight but work whose report
 * waits, deferred, for the pause to end), no check-in is under way, and it is in `output_ready`
 * or paused for a referral the user must confirm (the pipeline timeout is off in both). A run
 * paused while the PHYSICIAN still works does not rest.
 *
 * @example
 * RunHost.open({ ..., durable: { ..., resting: restsForUser } });
 */
export function restsForUser(snapshot: RunSnapshot): boolean {
  const { context } = snapshot;
  if (unfinishedWork(context).length > 0) return false;
  // A check-in being evaluated (a re-run it started keeps it until output_ready, paused or not).
  if (snapshot.value === 'output_ready' && context.checkin !== null && context.checkin.failure === undefined)
    return false;
  return snapshot.value === 'output_ready' || awaitsReferralConfirmation(snapshot);
}

/**
 * Whether the run waits for its user alone or is over (`error`): where SSE `until=settled`
 * closes. `paused_physician` while the PHYSICIAN still works is not settled.
 */
export function settledForUser(snapshot: RunSnapshot): boolean {
  return snapshot.value === 'error' || restsForUser(snapshot);
}
