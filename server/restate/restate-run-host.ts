import { randomUUID } from 'node:crypto';
import type { Store } from '../../actors/runtime/store.ts';
import { addressingOf } from '../../protocol/runtime/envelope-addressing.ts';
import type { SystemDefinition } from '../../machines/runtime/supervisor-system.ts';
import { Admission, DEFAULT_ADMISSION, type AdmissionLimits } from '../run-host/admission.ts';
import type { RunSnapshot } from '../run-host/hosted-run.ts';
import type { RunHosting } from '../run-host/run-hosting.ts';
import { RunStore } from '../run-host/run-store.ts';
import { RemoteRun } from './remote-run.ts';

export interface RestateRunHostOptions {
  ingressUrl: string;
  /** The system's name (its objects are `<name>-host`) and addressing (the id of its envelopes). */
  system: Pick<SystemDefinition, 'name' | 'addressing'>;
  store: Store;
  admission?: Partial<AdmissionLimits>;
  /** Every change seen of an owned run's actor. */
  onChange?: (partition: string, owner: string, snapshot: RunSnapshot) => void;
  /** Whether a run rests (its user alone may act): it then takes no working slot. */
  rests?: (snapshot: RunSnapshot) => boolean;
}

/**
 * The run host whose runs are Restate virtual objects (`runHostServices` serves them): the same
 * interface as the embedded `RunHost`. The run itself (supervisor, statecharts, journal, timers)
 * lives in its object; this process keeps who owns which run (one store record per run, as the
 * embedded host does), admission, and a `RemoteRun` per run a caller uses.
 *
 * @example
 * const host = new RestateRunHost({ ingressUrl, system, store });
 * const run = host.start({ owner: userId });
 */
export class RestateRunHost implements RunHosting<RemoteRun> {
  private readonly live = new Map<string, RemoteRun>();
  private readonly owners = new Map<string, string>();
  private readonly runs: RunStore;
  private readonly admission: Admission;
  private readonly idOf: (envelope: unknown) => string | undefined;

  constructor(private readonly options: RestateRunHostOptions) {
    this.runs = new RunStore(options.store, options.system.name);
    this.admission = new Admission(`${options.system.name} runs`, { ...DEFAULT_ADMISSION, ...options.admission });
    this.idOf = addressingOf(options.system.addressing).idOf;
  }

  checkAdmission(owner: string): void {
    this.admission.check(owner);
  }

  start(options: { owner: string; partition?: string; recovered?: boolean }): RemoteRun {
    if (!options.recovered) this.admission.check(options.owner);
    const run = this.remote(options.partition ?? randomUUID());
    this.owners.set(run.partition, options.owner);
    this.admission.admit(run.partition, options.owner, { force: options.recovered === true });
    return run;
  }

  async commit(run: RemoteRun): Promise<void> {
    const owner = this.owners.get(run.partition)!;
    await this.runs.update(run.partition, { partition: run.partition, owner, created_at: new Date().toISOString() });
  }

  livePartitions(): string[] {
    return [...this.live.keys()];
  }

  get(partition: string): RemoteRun | undefined {
    return this.live.get(partition);
  }

  async pin(partition: string, options: { workFor?: string } = {}) {
    const owner = await this.ownerOf(partition);
    if (owner === undefined) return { run: undefined, unpin: () => undefined };
    if (options.workFor !== undefined) this.admission.admit(partition, options.workFor);
    this.owners.set(partition, owner);
    const run = this.remote(partition);
    await run.refresh();
    return { run, unpin: () => undefined };
  }

  /** Restate committed the run's state when it answered the run's last send. */
  persisted(run: RemoteRun): Promise<void> {
    return run.quiescent();
  }

  async ownerOf(partition: string): Promise<string | undefined> {
    return this.owners.get(partition) ?? (await this.runs.record(partition))?.owner;
  }

  async snapshotOf(partition: string): Promise<RunSnapshot | undefined> {
    if ((await this.ownerOf(partition)) === undefined) return undefined;
    const run = this.remote(partition);
    await run.refresh();
    return run.snapshot();
  }

  /** A run on Restate is never rebuilt by this process, so never fails to be. */
  async failureOf(): Promise<string | undefined> {
    return undefined;
  }

  /** Every envelope of the run's journal (its object's state). */
  async messagesOf(partition: string): Promise<unknown[]> {
    const run = this.remote(partition);
    await run.refresh();
    return run.messages();
  }

  release(partition: string): void {
    this.admission.leave(partition);
    this.live.get(partition)?.stop();
    this.live.delete(partition);
  }

  async close(): Promise<void> {
    for (const partition of [...this.live.keys()]) this.release(partition);
    await this.runs.settled();
  }

  private remote(partition: string): RemoteRun {
    let run = this.live.get(partition);
    if (run) return run;
    const { onChange, rests } = this.options;
    run = new RemoteRun({
      ingressUrl: this.options.ingressUrl,
      system: this.options.system.name,
      partition,
      idOf: this.idOf,
      onState: (snapshot) => {
        const owner = this.owners.get(partition);
        if (owner !== undefined) onChange?.(partition, owner, snapshot);
        if (rests?.(snapshot)) this.admission.leave(partition);
      },
    });
    this.live.set(partition, run);
    return run;
  }
}
