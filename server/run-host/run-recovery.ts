import { createActor, type AnyActorLogic } from 'xstate';
import type { JournalEntry } from '../../actors/runtime/journal.ts';
import type { SystemDefinition } from '../../machines/runtime/supervisor-system.ts';
import { addressingOf } from '../../protocol/runtime/envelope-addressing.ts';
import { isRoutedRecord, type JournalRecord } from '../../protocol/runtime/ack-record.ts';
import type { RoutedRecord } from '../../protocol/runtime/routing.ts';
import type { HostedRun, RunSnapshot } from './hosted-run.ts';
import type { DurableRuns, RunHostOptions } from './run-host-options.ts';
import { recoveryOf, type Recovery, type UnfinishedRun } from './run-record.ts';
import type { RunStore } from './run-store.ts';

/** What a run is built from: its snapshot, and what its journal holds (envelopes' ids, and every record). */
export interface RunSource {
  snapshot?: unknown;
  journaledIds?: readonly string[];
  records?: readonly JournalRecord[];
}

/**
 * A run's journal read back: its routed envelopes (ack records skipped), their ids as its
 * system's addressing reads them (they count as seen), and every record (to re-arm pending acks).
 */
export function journalOf(system: SystemDefinition, entries: readonly JournalEntry<JournalRecord>[]) {
  const routed = entries.filter((e): e is JournalEntry<RoutedRecord> => isRoutedRecord(e.data));
  return { routed, journaledIds: journaledIdsOf(system, routed), records: entries.map((e) => e.data) };
}

/** The ids of the envelopes in a run's journal, as its system's addressing reads them: they count as seen. */
export function journaledIdsOf(system: SystemDefinition, entries: readonly JournalEntry<RoutedRecord>[]): string[] {
  const { idOf } = addressingOf(system.addressing);
  const ids: string[] = [];
  for (const entry of entries) {
    const id = idOf(entry.data.envelope);
    if (id !== undefined) ids.push(id);
  }
  return ids;
}

/** What recovery may do to the host's runs (the host hands it these, and nothing else). */
export interface RecoveringHost {
  readonly options: RunHostOptions;
  readonly runs: RunStore;
  own(partition: string, owner: string): void;
  build(partition: string, from: RunSource): HostedRun;
  discard(partition: string): void;
  rests(snapshot: RunSnapshot): boolean;
  retire(partition: string): void;
  holdWhile(partition: string, work: () => void | Promise<void>): void;
  /** The live run of `partition`, if any. */
  live(partition: string): HostedRun | undefined;
  closed(): boolean;
  /** Knows `owner` as the run's owner again (a resting run woken: no working slot taken here). */
  remember(partition: string, owner: string): void;
}

/** Brings a resting run back from its record: restored from its snapshot, indexed again. */
export async function reviveRun(host: RecoveringHost, partition: string): Promise<HostedRun | undefined> {
  const record = await host.runs.record(partition);
  if (
    !record ||
    record.snapshot === undefined ||
    record.snapshot === null ||
    record.finished ||
    record.failure !== undefined
  )
    return undefined;
  // Indexed again while its journal is read: on disk before the run can journal anything.
  const [entries] = await Promise.all([
    host.options.journal.read(partition).catch(() => undefined),
    host.runs.markUnfinished({ partition, owner: record.owner }),
  ]);
  if (host.closed() || host.live(partition)) return host.live(partition);
  const entry = { partition, owner: record.owner };
  // A journal that cannot be read (damaged, found on this first touch): recovery reports the run failed.
  if (!entries) return recoverLive(host, entry);
  host.remember(partition, record.owner);
  const { journaledIds, records } = journalOf(host.options.system, entries);
  const run = tryBuild(host, partition, { snapshot: record.snapshot, journaledIds, records });
  // Its snapshot will not restore: it comes back as after a restart (rebuilt, or failed).
  return run ?? recoverLive(host, entry);
}

async function recoverLive(host: RecoveringHost, entry: UnfinishedRun): Promise<HostedRun | undefined> {
  await recoverRun(host, entry, host.options.durable!);
  return host.live(entry.partition);
}

/** Brings back one unfinished run; a run that cannot come back is marked failed, the others go on. */
export async function recoverRun(host: RecoveringHost, entry: UnfinishedRun, durable: DurableRuns): Promise<void> {
  const { partition, owner } = entry;
  const warn = host.options.warn ?? console.warn;
  host.own(partition, owner);
  let entries: JournalEntry<JournalRecord>[] = [];
  let recovery: Recovery;
  try {
    entries = await host.options.journal.read(partition);
    const lastSeq = entries.length === 0 ? 0 : entries[entries.length - 1]!.seq;
    // The record is a cache: one that cannot be read is as good as missing.
    const record = await host.runs.record(partition).catch(() => undefined);
    recovery = recoveryOf(record, lastSeq);
  } catch (error) {
    recovery = {
      kind: 'fail' as const,
      reason: `Its journal could not be read (${error instanceof Error ? error.message : String(error)}).`,
    };
  }
  const { routed, journaledIds, records } = journalOf(host.options.system, entries);
  if (recovery.kind === 'restore') {
    const run = tryBuild(host, partition, { snapshot: recovery.snapshot, journaledIds, records });
    if (run) {
      // The journal went further than the snapshot: what the user sent since is handed over again.
      const { behind, since } = recovery;
      if (behind && durable.catchUp)
        host.holdWhile(partition, () =>
          durable.catchUp!(
            run,
            routed.filter((e) => e.seq > since),
          ),
        );
      // Finished or resting but still indexed (stopped before it retired): it retires now.
      if (host.rests(run.snapshot())) host.retire(partition);
      return;
    }
    recovery = { kind: 'rebuild' as const, reason: 'its snapshot could not be restored' };
  }
  if (recovery.kind === 'rebuild') {
    warn(
      `Run ${partition} of ${host.options.system.name}: ${recovery.reason}; rebuilding it from its journal (${routed.length} envelopes).`,
    );
    // A record lost or set aside took the run's owner with it: the rebuilt run's record names it again.
    void host.runs.update(partition, { partition, owner });
    const run = tryBuild(host, partition, { journaledIds, records });
    if (run) {
      try {
        host.holdWhile(partition, () => durable.rebuild(run, routed));
        return;
      } catch (error) {
        host.discard(partition);
        recovery = {
          kind: 'fail' as const,
          reason: `It could not be rebuilt from its journal: ${error instanceof Error ? error.message : String(error)}`,
        };
      }
    } else
      recovery = {
        kind: 'fail' as const,
        reason: 'It could not be rebuilt from its journal: its actors did not start.',
      };
  }
  warn(`Run ${partition} of ${host.options.system.name} could not be recovered: ${recovery.reason}`);
  await host.runs.update(partition, { partition, owner, failure: recovery.reason, finished: true });
  await host.runs.markDone(partition);
}

/** Builds a run (restored when a snapshot is given); undefined when its actors do not start. */
export function tryBuild(host: RecoveringHost, partition: string, from: RunSource): HostedRun | undefined {
  // A snapshot the machine cannot take (a state it no longer has) is found here, on an actor
  // that is never started, rather than as an error thrown later from inside the run.
  const logic = host.options.system.agents[host.options.runActor] as AnyActorLogic;
  if (
    from.snapshot !== undefined &&
    createActor(logic, { snapshot: from.snapshot as never }).getSnapshot().status === 'error'
  )
    return undefined;
  try {
    const run = host.build(partition, from);
    if (run.actor.getSnapshot().status !== 'error' && run.supervisor.getSnapshot().status !== 'error') return run;
  } catch {
    // Reported as undefined: the caller rebuilds the run or marks it failed.
  }
  host.discard(partition);
  return undefined;
}
