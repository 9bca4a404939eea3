import { rename } from 'node:fs/promises';
import type { Collection, Store } from '../../actors/runtime/store.ts';
import { DataFileCorruptError } from '../../protocol/runtime/runtime-error.ts';
import { CoalescedWrites } from './coalesced-writes.ts';
import type { RunRecord, UnfinishedRun } from './run-record.ts';

/**
 * Where the host keeps a system's runs: one store file per run (`<system>/runs/<partition>`,
 * written through coalesced writes) and the index of unfinished runs (`<system>/unfinished`),
 * the only list start-up reads.
 */
export class RunStore {
  private readonly writes: CoalescedWrites<RunRecord>;
  private readonly index: Collection<UnfinishedRun>;

  constructor(
    private readonly store: Store,
    private readonly system: string,
  ) {
    this.index = store.collection(`${system}/unfinished`);
    this.writes = new CoalescedWrites<RunRecord>(
      (partition, changes) =>
        this.readable(() =>
          this.records(partition).update('run', (record) => ({
            ...(record as RunRecord),
            ...changes,
            updated_at: new Date().toISOString(),
          })),
        ),
      (partition, error) => console.error(`Could not persist run ${partition}:`, error),
    );
  }

  /** The run's record as last written (writes under way are waited for). */
  async record(partition: string): Promise<RunRecord | undefined> {
    await this.writes.flushed(partition);
    return this.readable(() => this.records(partition).get('run'));
  }

  /** Merges `changes` into the run's record (coalesced with the changes that follow). */
  update(partition: string, changes: Partial<RunRecord>): Promise<unknown> {
    return this.writes.update(partition, changes);
  }

  unfinished(): Promise<UnfinishedRun[]> {
    return this.index.list();
  }

  markUnfinished(entry: UnfinishedRun): Promise<void> {
    return this.index.put(entry.partition, entry);
  }

  markDone(partition: string): Promise<boolean> {
    return this.index.delete(partition);
  }

  /** Resolves once the writes of the run's record issued so far are done. */
  flushed(partition: string): Promise<void> {
    return this.writes.flushed(partition);
  }

  /** Resolves once every record write issued so far is done. */
  settled(): Promise<void> {
    return this.writes.settled();
  }

  /**
   * Runs `work` on a run's record; a record file that is damaged is a cache lost, not a fatal
   * error: it is set aside (renamed `<file>.corrupt-<time>`, with a warning) and `work` runs again
   * on no record, so the run is rebuilt from its journal.
   */
  private async readable<R>(work: () => Promise<R>): Promise<R> {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof DataFileCorruptError)) throw error;
      const aside = `${error.file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      await rename(error.file, aside);
      console.warn(`${error.message} It is a cache of the journal: set aside as ${aside}.`);
      return work();
    }
  }

  private records(partition: string): Collection<RunRecord> {
    return this.store.collection(`${this.system}/runs/${partition}`);
  }
}
