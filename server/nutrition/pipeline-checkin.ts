import { randomUUID } from 'node:crypto';
import { makeEnvelope, versionedRunId } from '../../actors/nutrition/envelope-factory.ts';
import type { PipelineEvent } from '../../machines/nutrition/pipeline.ts';
import type { EnvelopeOf } from '../../protocol/nutrition/envelope.ts';
import type { WeeklyCheckin } from '../../protocol/nutrition/weekly-checkin.ts';
import { ConflictError, RuntimeError, ValidationError } from '../../protocol/runtime/runtime-error.ts';
import type { RunSnapshot } from '../run-host/hosted-run.ts';
import type { RunHandle, RunHosting } from '../run-host/run-hosting.ts';
import type { PipelineListings } from './pipeline-listings.ts';

/** One weekly check-in for a run the caller already found (and pinned) for its user. */
export interface CheckinRequest {
  host: RunHosting;
  listings: PipelineListings;
  userId: string;
  runId: string;
  checkin: WeeklyCheckin;
  /** The live run; undefined when it is over (refused, 409). */
  run: RunHandle | undefined;
  /** Its snapshot before the check-in. */
  before: RunSnapshot;
}

/**
 * §7: evaluates a check-in and answers with the adjustment result once any re-run is done. Only a
 * run in `output_ready` with no check-in under way takes one (else 409 `not_ready`); girths are
 * due every second week (else 400 naming `waist_cm` and `hip_cm`). The answer leaves once it is
 * journaled and in the run's persisted snapshot; a check-in that could not be evaluated is a 503.
 *
 * @example
 * const adjustment = await evaluateCheckin({ host, listings, userId, runId, checkin, run, before: snapshot });
 */
export async function evaluateCheckin(request: CheckinRequest): Promise<EnvelopeOf<'adjustment_result'>> {
  const { host, listings, userId, runId, checkin, run, before } = request;
  if (!run || before.value !== 'output_ready' || (before.context.checkin && !before.context.checkin.failure)) {
    throw new ConflictError(
      'not_ready',
      `Run ${runId} takes check-ins only in output_ready with no check-in under way (it is ${String(before.value)}).`,
    );
  }
  const listing = (await listings.get(userId, runId))!;
  const week = listing.checkins + 1;
  const measured = checkin.waist_cm !== null && checkin.hip_cm !== null;
  if (!measured && week - listing.last_girth_checkin >= 2) {
    throw new ValidationError('waist_cm and hip_cm are due: they are measured every second week (§7.2).', [
      { path: 'waist_cm', message: 'Required this week (biweekly)' },
      { path: 'hip_cm', message: 'Required this week (biweekly)' },
    ]);
  }
  await listings.update(userId, runId, { checkins: week, ...(measured ? { last_girth_checkin: week } : {}) });
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
    await host.persisted(run);
    return after.context.lastAdjustment;
  }
  throw new RuntimeError(
    'checkin_failed',
    `The check-in could not be evaluated: ${after.context.checkin?.failure ?? after.context.error?.details}. Try again.`,
    503,
  );
}
