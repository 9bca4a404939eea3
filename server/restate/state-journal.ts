import type { Journal, JournalEntry } from '../../actors/runtime/journal.ts';
import type { JournalRecord } from '../../protocol/runtime/ack-record.ts';

/**
 * One run's journal as its Restate object holds it: the entries its state had when the handler
 * began, and what the supervisor appends during the handler (saved with the run's state when
 * the handler ends, so an entry is written exactly once: Restate commits state with the
 * invocation). Appends resolve on the next microtask, in order.
 *
 * @example
 * const journal = new StateJournal(ctx.key, (await ctx.get('journal')) ?? []);
 * // ... the run routes envelopes ...
 * ctx.set('journal', journal.entries());
 */
export class StateJournal implements Journal<JournalRecord> {
  private readonly log: JournalEntry<JournalRecord>[];
  private readonly before: number;

  constructor(
    private readonly partition: string,
    entries: readonly JournalEntry<JournalRecord>[],
  ) {
    this.log = [...entries];
    this.before = entries.length;
  }

  /** Every entry, the new ones included. */
  entries(): JournalEntry<JournalRecord>[] {
    return this.log;
  }

  /** The entries appended during this handler. */
  appended(): JournalEntry<JournalRecord>[] {
    return this.log.slice(this.before);
  }

  async append(partition: string, data: JournalRecord): Promise<JournalEntry<JournalRecord>> {
    const [entry] = await this.appendMany(partition, [data]);
    return entry!;
  }

  async appendMany(partition: string, data: readonly JournalRecord[]): Promise<JournalEntry<JournalRecord>[]> {
    this.check(partition);
    await Promise.resolve();
    // A copy, as a file journal would read it back (frozen envelopes stay the caller's).
    return data.map((record) => {
      const entry = { seq: this.log.length + 1, data: JSON.parse(JSON.stringify(record)) as JournalRecord };
      this.log.push(entry);
      return entry;
    });
  }

  async read(partition: string): Promise<JournalEntry<JournalRecord>[]> {
    return partition === this.partition ? [...this.log] : [];
  }

  async lastSeq(partition: string): Promise<number> {
    return partition === this.partition ? this.log.length : 0;
  }

  loadedSeq(partition: string): number | undefined {
    return partition === this.partition ? this.log.length : undefined;
  }

  async partitions(): Promise<string[]> {
    return this.log.length > 0 ? [this.partition] : [];
  }

  async close(): Promise<void> {}

  private check(partition: string): void {
    if (partition !== this.partition)
      throw new Error(
        `Run ${this.partition} was asked to journal an envelope of ${partition}: a run object holds its own partition only.`,
      );
  }
}
