import type { HostedRun, RunSnapshot } from './hosted-run.ts';
import type { RunStore } from './run-store.ts';

/** What retiring a run may look at and do on its host. */
export interface RetiringHost {
  readonly runs: RunStore;
  closed(): boolean;
  live(partition: string): HostedRun | undefined;
  owner(partition: string): string | undefined;
  held(partition: string): boolean;
  rests(snapshot: RunSnapshot): boolean;
  /** The run no longer takes a working slot (admission). */
  leave(partition: string): void;
  release(partition: string): void;
}

/**
 * Takes finished or resting runs out of the index of unfinished runs once their last envelopes
 * are journaled and their latest snapshot is on disk; then they need not stay live. A run held
 * or moved on meanwhile (its user acted) stays, in the index. The host's `close` waits for them.
 */
export class RunRetirement {
  /** Finished or resting runs on their way out of the index. */
  private readonly retiring = new Map<string, Promise<void>>();

  constructor(private readonly host: RetiringHost) {}

  /** Resolves once every retirement under way now is done. */
  async settled(): Promise<void> {
    await Promise.all(this.retiring.values());
  }

  retire(partition: string): void {
    const { host } = this;
    const run = host.live(partition);
    if (!run) return;
    // It waits for nobody but its user now: it no longer takes a working slot.
    host.leave(partition);
    if (this.retiring.has(partition) || host.owner(partition) === undefined) return;
    const stillRests = () =>
      host.closed() || (host.live(partition) === run && !host.held(partition) && host.rests(run.snapshot()));
    const flushed = async () => {
      run.flush();
      await host.runs.flushed(partition);
    };
    const retired = (async () => {
      // A closing host has stopped its runs: what they still had in flight will not settle.
      if (!host.closed()) await run.quiescent();
      await flushed();
      if (!stillRests()) return;
      const owner = host.owner(partition);
      await host.runs.markDone(partition);
      // What changed meanwhile is on disk before the run goes: the record it rests on is its latest.
      await flushed();
      if (host.closed()) return;
      if (stillRests()) host.release(partition);
      else if (owner !== undefined) await host.runs.markUnfinished({ partition, owner });
    })()
      .catch((error: unknown) => console.error(`Could not retire run ${partition}:`, error))
      .finally(() => {
        this.retiring.delete(partition);
        // Let go of (or rested again) while this one was under way: it retires now.
        if (!host.closed() && host.live(partition) === run && !host.held(partition) && host.rests(run.snapshot()))
          this.retire(partition);
      });
    this.retiring.set(partition, retired);
  }
}
