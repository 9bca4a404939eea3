import type { Journal } from '../../actors/runtime/journal.ts';
import type { Store } from '../../actors/runtime/store.ts';
import type { RoutedRecord } from '../../protocol/runtime/routing.ts';
import { RunStore } from '../run-host/run-store.ts';

/** A run as stores written before the run host kept it: its snapshot inside the user's listing. */
interface LegacyRun {
  pipeline_run_id: string;
  user_id: string;
  created_at: string;
  state: string;
  snapshot?: unknown;
}

/**
 * Moves runs stored before the run host (an index `pipeline-index` and each run's snapshot in
 * `pipelines/<user>`) onto it: the snapshot into the run's own record, unfinished runs into
 * the host's index, the listing without its snapshot. Idempotent, and a no-op on a store that
 * has no such runs; each run leaves the old index last, so a crash mid-way only repeats work.
 */
export async function adoptLegacyRuns(store: Store, journal: Journal<RoutedRecord>): Promise<number> {
  const legacy = store.collection<{ run_id: string; user_id: string }>('pipeline-index');
  const runs = new RunStore(store, 'nutrition');
  let adopted = 0;
  for (const { run_id: runId, user_id: owner } of await legacy.list()) {
    const listings = store.collection<LegacyRun>(`pipelines/${owner}`);
    const old = await listings.get(runId);
    if (old && old.snapshot !== undefined && old.snapshot !== null) {
      const finished = old.state === 'error';
      await runs.update(runId, {
        partition: runId,
        owner,
        created_at: old.created_at,
        snapshot: old.snapshot,
        // A journal that cannot be read says nothing here: recovery reports that run failed.
        journal_seq: await journal.lastSeq(runId).catch(() => 0),
        finished,
      });
      await runs.flushed(runId);
      if (!finished) await runs.markUnfinished({ partition: runId, owner });
    } else if (old) await runs.markUnfinished({ partition: runId, owner });
    if (old) {
      const { snapshot: _snapshot, ...listing } = old;
      await listings.put(runId, listing as LegacyRun);
    }
    await legacy.delete(runId);
    adopted += 1;
  }
  return adopted;
}
