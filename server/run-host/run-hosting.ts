import type { EventObject } from 'xstate';
import type { RunEvent, RunSnapshot } from './hosted-run.ts';
import type { RefusedRecord } from '../../protocol/runtime/refused-record.ts';

/**
 * One supervised run as a system sees it, whichever host runs it: it takes events for its run
 * actor, shows the run actor's snapshot, and tells watchers of each transition and routed envelope.
 */
export interface RunHandle {
  readonly partition: string;
  /** Hands `event` to the run actor (the pipeline's ORCHESTRATOR, a tiers task). */
  send<E extends EventObject>(event: E): void;
  /** The run actor's snapshot now. */
  snapshot(): RunSnapshot;
  /** Each transition of the run actor and each envelope routed, until the returned function is called. */
  watch(listener: (event: RunEvent) => void): () => void;
  /**
   * Resolves with the first snapshot (the current one included) that satisfies `predicate`;
   * rejects with `signal`'s reason once it is aborted (the caller stops waiting, nothing is kept).
   */
  until(predicate: (snapshot: RunSnapshot) => boolean, signal?: AbortSignal): Promise<RunSnapshot>;
  /** Resolves once nothing of the run waits for the journal or for an ack. */
  quiescent(): Promise<void>;
  /**
   * Resolves once the envelope `messageId` is journaled (or refused); call it in the tick of the
   * send. Where refusals are journaled (`journalRefusals`), a refused one resolves with its record.
   */
  journaled(messageId: string): Promise<RefusedRecord | undefined>;
}

/**
 * What a system asks of the host of its runs: the interface every run host implements (the
 * embedded `RunHost`, in this process; the Restate host, whose runs are virtual objects). Each
 * run is keyed by its journal partition and owned by one user.
 *
 * @example
 * const run = host.start({ owner: userId });
 * run.send({ type: 'pipeline.start', envelope });
 * await run.journaled(envelope.message_id);
 * await host.commit(run); // the client may hear of it now
 */
export interface RunHosting<Run extends RunHandle = RunHandle> {
  /**
   * Throws `OverloadedError` (503) when the host has as many runs working as it takes, or
   * `TooManyRunsError` (429) when `owner` has as many as one owner may; changes nothing. `start`
   * and `pin` with `workFor` check by themselves: a system calls this first only to refuse
   * before doing anything else (reading the store, queueing).
   */
  checkAdmission(owner: string): void;
  /**
   * A new run, or the run of `partition` when given (a session's next turn): owned by `owner`
   * from now on, and working until it rests or ends. Throws at once, building nothing, when
   * admission refuses it; `recovered` work (accepted before a restart) counts but is never refused.
   */
  start(options: { owner: string; partition?: string; recovered?: boolean }): Run;
  /**
   * Records `run` as unfinished, so that it survives a restart: call it once the envelope that
   * started it is journaled (`run.journaled(id)`); when it resolves, its client may hear of it.
   */
  commit(run: Run): Promise<void>;
  /** The partitions of the runs live now. */
  livePartitions(): string[];
  /** The live run of `partition`, if any. */
  get(partition: string): Run | undefined;
  /**
   * Wakes the run and holds it live until `unpin` is called: a caller about to send to a run
   * (a check-in) or watching it pins it, so that it is not released as resting meanwhile. The
   * run is undefined when it is over, failed or unknown. A caller about to give it work names
   * its owner (`workFor`): admission is checked first (throwing as `start` does, waking nothing)
   * and the run counts as working until it rests again.
   */
  pin(partition: string, options?: { workFor?: string }): Promise<{ run: Run | undefined; unpin: () => void }>;
  /**
   * Resolves once the run's latest snapshot is durable: a caller answers its client after this
   * when what it did (a check-in, a confirmation) must survive a kill -9.
   */
  persisted(run: Run): Promise<void>;
  /** Who owns the run. */
  ownerOf(partition: string): Promise<string | undefined>;
  /** The run's snapshot: the live one, else its last persisted one. */
  snapshotOf(partition: string): Promise<RunSnapshot | undefined>;
  /** Why the run could not be recovered, if it could not. */
  failureOf(partition: string): Promise<string | undefined>;
  /** Stops a live run that has nothing left to do. */
  release(partition: string): void;
  /** Stops every run and waits for their last writes. */
  close(): Promise<void>;
}
