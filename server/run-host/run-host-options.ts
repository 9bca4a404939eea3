import type { EventObject, InspectionEvent } from 'xstate';
import type { ServiceClock } from '../../actors/runtime/clock.ts';
import type { Journal, JournalEntry } from '../../actors/runtime/journal.ts';
import type { Store } from '../../actors/runtime/store.ts';
import type { SupervisorInput } from '../../machines/runtime/supervisor.ts';
import type { SystemDefinition } from '../../machines/runtime/supervisor-system.ts';
import type { JournalRecord } from '../../protocol/runtime/ack-record.ts';
import type { RoutedRecord } from '../../protocol/runtime/routing.ts';
import type { AdmissionLimits } from './admission.ts';
import type { HostedRun, RunSnapshot } from './hosted-run.ts';

/** How a system's runs survive a restart (absent: a run lives only while it works, as a trainer turn). */
export interface DurableRuns {
  /** A finished run leaves the index of unfinished runs, is not restored and is not kept live. */
  finished(snapshot: RunSnapshot): boolean;
  /**
   * A run that waits for nobody but its user (a pipeline in `output_ready`) rests: once its
   * snapshot and envelopes are on disk it leaves the index and is not kept live either, and
   * `pin` brings it back from its snapshot when the user acts. No timer may run while it rests.
   */
  resting?(snapshot: RunSnapshot): boolean;
  /** Sent to a restored run actor (to re-arm its timers, which XState does not restore). */
  resume?: EventObject;
  /**
   * Starts a fresh run again from its journal's envelopes (its first, then the user's later ones):
   * sends are idempotent, so what the journal holds is handed over again, never appended again.
   * Throw at once when the journal does not describe a run that can be rebuilt; what follows
   * later (the user's later envelopes, each when the run is ready) goes in the returned promise,
   * during which the host holds the run live. An entry marked `expired` was never delivered:
   * hand it over again and the supervisor finds it expired again.
   */
  rebuild(run: HostedRun, entries: readonly JournalEntry<RoutedRecord>[]): void | Promise<void>;
  /**
   * Brings a run restored from a snapshot older than its journal up to date: `entries` are the
   * journal's entries past the snapshot (the user's envelopes among them were sent after it).
   */
  catchUp?(run: HostedRun, entries: readonly JournalEntry<RoutedRecord>[]): void | Promise<void>;
}

export interface RunHostOptions {
  system: SystemDefinition;
  /** The runs' envelopes, and for a system with `acks` their ack records beside them. */
  journal: Journal<JournalRecord>;
  store: Store;
  /** The agent whose state is the run's (`ORCHESTRATOR`, `TRAINER`). */
  runActor: string;
  /** The supervisor input of one run; `{ journaledIds }` by default. */
  runInput?: (partition: string, journaledIds: Iterable<string>) => SupervisorInput;
  durable?: DurableRuns;
  /** Keep one run built ahead of time, so that `start` needs not build a supervisor and its agents. */
  spare?: boolean;
  clock?: ServiceClock;
  /** Every inspection event of every run, by partition (the visualizer's live view). */
  inspect?: (partition: string, event: InspectionEvent) => void;
  /** Every change of an owned run's actor (keep it cheap: it runs on the routing path). */
  onChange?: (partition: string, owner: string, snapshot: RunSnapshot) => void;
  /** How many runs work at once, in all and per owner (`DEFAULT_ADMISSION` for what is not given). */
  admission?: Partial<AdmissionLimits>;
  /**
   * Journal each envelope refused at admission as a `refused` record (envelope, code, field) in
   * its run's partition, and answer `run.journaled(id)` with it. Opt-in: readers of the other
   * systems' journals take every record with an envelope for a routed one.
   */
  journalRefusals?: boolean;
  /** Where warnings go (a run that could not be recovered); `console.warn` by default. */
  warn?: (message: string) => void;
}
