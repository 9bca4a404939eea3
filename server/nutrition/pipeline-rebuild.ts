import type { JournalEntry } from '../../actors/runtime/journal.ts';
import type { PipelineEvent } from '../../machines/nutrition/pipeline.ts';
import type { EnvelopeOf } from '../../protocol/nutrition/envelope.ts';
import type { RoutableEnvelope, RoutedRecord } from '../../protocol/runtime/routing.ts';
import type { RunHandle } from '../run-host/run-hosting.ts';

const waitsForCheckin = (snapshot: ReturnType<RunHandle['snapshot']>) =>
  snapshot.value === 'error' ||
  (snapshot.value === 'output_ready' &&
    (snapshot.context.checkin === null || snapshot.context.checkin.failure !== undefined));

/**
 * Hands the user's check-ins to the run again, each once the run is ready for it; skips the
 * one the run already works on. Resolves when the last one is handed over (or the run errs).
 */
async function replayCheckins(run: RunHandle, envelopes: readonly RoutableEnvelope[]): Promise<void> {
  const checkins = envelopes.filter(
    (e) => e.from_agent === 'USER' && e.data_type === 'weekly_checkin',
  ) as EnvelopeOf<'weekly_checkin'>[];
  for (const envelope of checkins) {
    if (run.snapshot().context.checkin?.envelopeId === envelope.message_id) continue;
    if ((await run.until(waitsForCheckin)).value === 'error') return;
    run.send({ type: 'pipeline.checkin', envelope } satisfies PipelineEvent);
  }
}

/**
 * Starts a pipeline again from its journal: the user's intake (its first envelope), then each
 * check-in the user sent. The run's message ids derive from their inputs, so work done again
 * yields ids the journal holds, which are handed over, not appended again. A referral
 * confirmation is not an envelope: a rebuilt run that pauses for one asks again. Throws at once
 * when the journal does not start with the user's intake; the check-ins follow in the returned
 * promise (start-up does not wait for runs to redo their work).
 */
export function rebuildPipeline(run: RunHandle, entries: readonly JournalEntry<RoutedRecord>[]): Promise<void> {
  const envelopes = entries.map((entry) => entry.data.envelope);
  const [first] = envelopes;
  if (first?.from_agent !== 'USER' || first.data_type !== 'intake_data') {
    throw new Error(
      `its first envelope is ${first ? `${first.from_agent} -> ${first.to_agent} : ${first.data_type}` : 'missing'}, not the user's intake_data`,
    );
  }
  run.send({ type: 'pipeline.start', envelope: first as EnvelopeOf<'intake_data'> } satisfies PipelineEvent);
  return replayCheckins(run, envelopes);
}

/** Brings a pipeline restored from an older snapshot up to date: the check-ins the user sent since. */
export function catchUpPipeline(run: RunHandle, entries: readonly JournalEntry<RoutedRecord>[]): Promise<void> {
  return replayCheckins(
    run,
    entries.map((entry) => entry.data.envelope),
  );
}
