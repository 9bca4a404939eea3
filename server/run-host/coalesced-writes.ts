import { KeyedQueue } from '../../actors/runtime/keyed-queue.ts';

/**
 * Writes of one key never overlap, and changes that arrive while a write is under way are merged
 * and written together after it (the latest value of each field wins): a burst of changes costs
 * one or two writes, not one each. A failed write is reported to `onError`, never thrown at the
 * caller's actor; the next write carries the merged changes again.
 *
 * @example
 * const writes = new CoalescedWrites<Record>((id, changes) => records.update(id, (r) => ({ ...r, ...changes })));
 * void writes.update(runId, { state: 'done' });
 */
export class CoalescedWrites<T extends object> {
  private readonly queue = new KeyedQueue();
  private readonly queued = new Map<string, { changes: Partial<T>; written: Promise<unknown> }>();

  constructor(
    private readonly write: (key: string, changes: Partial<T>) => Promise<unknown>,
    private readonly onError: (key: string, error: unknown) => void = (key, error) =>
      console.error(`Could not write ${key}:`, error),
  ) {}

  /** Merges `changes` into the next write of `key`; resolves once they are written. */
  update(key: string, changes: Partial<T>): Promise<unknown> {
    const queued = this.queued.get(key);
    if (queued) {
      Object.assign(queued.changes, changes);
      return queued.written;
    }
    const entry = { changes: { ...changes }, written: Promise.resolve() as Promise<unknown> };
    entry.written = this.after(key, () => {
      this.queued.delete(key);
      return this.write(key, entry.changes);
    });
    this.queued.set(key, entry);
    return entry.written;
  }

  /** Runs `work` after every write of `key` so far (whatever their outcome), in the same queue. */
  private after<R>(key: string, work: () => Promise<R>): Promise<R> {
    const next = this.queue.run(key, work);
    next.catch((error: unknown) => this.onError(key, error));
    return next;
  }

  /** Resolves once every write of `key` issued so far is done (whatever their outcome). */
  flushed(key: string): Promise<void> {
    return this.queue.idle(key);
  }

  /** Resolves once every write issued so far is done. */
  settled(): Promise<void> {
    return this.queue.settled();
  }
}
