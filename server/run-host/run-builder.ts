import type { InspectionEvent } from 'xstate';
import { createSupervisorMachine, type SupervisorMachine } from '../../machines/runtime/supervisor.ts';
import { addressingOf } from '../../protocol/runtime/envelope-addressing.ts';
import { HostedRun, type RunSnapshot } from './hosted-run.ts';
import { restoredLogic } from './restored-logic.ts';
import type { DurableRuns, RunHostOptions } from './run-host-options.ts';
import type { RunSource } from './run-recovery.ts';

/** What a built run tells its host. */
export interface RunBuilderHooks {
  /** The run's owner, once known (a change of an unowned run, the spare's, is nobody's business). */
  owner(partition: string): string | undefined;
  /** The run actor's latest snapshot, for a durable system's record. */
  persist(partition: string, persisted: unknown, snapshot: RunSnapshot, durable: DurableRuns): void;
}

/**
 * Builds a host's runs: a supervisor with the system's agents, fresh or with the run actor
 * restored from a snapshot, wired to the host's journal, clock, inspection and records.
 *
 * @example
 * const builder = new RunBuilder(options, { owner: (p) => owners.get(p), persist });
 * const run = builder.build(partition, { snapshot, journaledIds });
 */
export class RunBuilder {
  private readonly machine: SupervisorMachine;

  constructor(
    private readonly options: RunHostOptions,
    private readonly hooks: RunBuilderHooks,
  ) {
    this.machine = createSupervisorMachine(options.system, this.supervisorOptions());
  }

  /** A run's supervisor and agents; restored from `from.snapshot` when given, else fresh. */
  build(partition: string, from: RunSource = {}): HostedRun {
    const { options, hooks } = this;
    options.journal.prepare?.(partition);
    const restore = from.snapshot === undefined ? undefined : { snapshot: from.snapshot };
    const machine = restore
      ? createSupervisorMachine(
          {
            ...options.system,
            agents: {
              ...options.system.agents,
              [options.runActor]: restoredLogic(options.system.agents[options.runActor] as never, restore.snapshot),
            },
          },
          this.supervisorOptions(),
        )
      : this.machine;
    const journaledIds = from.journaledIds ?? [];
    const { durable, inspect, onChange } = options;
    return new HostedRun({
      partition,
      machine,
      input: {
        ...(options.runInput?.(partition, journaledIds) ?? { journaledIds }),
        // Pending acks are re-armed from the journal (a system without acks needs none of it).
        ...(options.system.addressing?.ack && from.records ? { journal: from.records } : {}),
      },
      runActor: options.runActor,
      ...(options.clock ? { clock: options.clock } : {}),
      idOf: addressingOf(options.system.addressing).idOf,
      ...(options.journalRefusals
        ? {
            refusals: {
              append: (record) => options.journal.append(partition, record),
              addressing: options.system.addressing,
            },
          }
        : {}),
      ...(restore && durable?.resume ? { resume: durable.resume } : {}),
      ...(inspect ? { inspect: (event: InspectionEvent) => inspect(partition, event) } : {}),
      onChange: (snapshot) => {
        const owner = hooks.owner(partition);
        if (owner !== undefined) onChange?.(partition, owner, snapshot);
      },
      ...(durable
        ? {
            persist: (persisted: unknown, snapshot: RunSnapshot) =>
              hooks.persist(partition, persisted, snapshot, durable),
          }
        : {}),
    });
  }

  /** What every run's supervisor gets: the journal, and the host's clock for envelopes that expire. */
  private supervisorOptions() {
    const { journal, clock } = this.options;
    return clock ? { journal, now: () => clock.now() } : { journal };
  }
}
