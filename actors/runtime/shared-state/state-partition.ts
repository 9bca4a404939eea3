import { errorMessage } from '../../../protocol/runtime/error-message.ts';
import type { ServiceClock } from '../clock.ts';
import type { Journal } from '../journal.ts';
import { generationKey } from './partition-generation.ts';
import { SharedStateError } from './shared-state-error.ts';
import type { StateEntry, WriteResult } from './shared-state.ts';
import { isLive, makeEntry } from './state-entry.ts';
import type { RecordedKey, StateRecord } from './state-record.ts';

/** How a scope instance keeps its data; the first view to touch it decides. */
export interface PartitionOptions {
  journal: Journal<StateRecord>;
  clock: ServiceClock;
  /** Versions kept per key (deletions included), in memory and in snapshots. */
  historyLimit: number;
  /** Writes after which a generation is compacted into a snapshot (at least as many as the keys held). */
  compactAfter: number;
}

/** What a partition tells the slot that holds it. */
export interface PartitionHooks {
  /** A durable change, in version order. */
  changed(entry: StateEntry): void;
  /** The journal failed an append: this partition must be dropped and read again. */
  broken(): void;
}

/** A scope instance as read from the journal. */
export interface LoadedPartition {
  scope: string;
  id: string;
  generation: number;
  /** The highest version written. */
  revision: number;
  /** Kept versions of each key, oldest first. */
  keys: Map<string, StateEntry[]>;
  /** Writes in the current generation after its snapshot. */
  sinceSnapshot: number;
}

/** One key of a write, already checked and with its value copied. */
export interface DecidedKey {
  key: string;
  value?: unknown;
  delete?: true;
  expectedVersion?: number;
  ttlMs?: number;
}

interface Pending {
  version: number;
  entries: StateEntry[];
  /** What the caller gets once this write, and every one before it, is durable. */
  result: WriteResult;
  done: boolean;
  resolve(result: WriteResult): void;
  reject(error: unknown): void;
  /** Told once this write is acknowledged or refused (readers waiting on it); made on demand. */
  waiters?: (() => void)[];
}

/**
 * One scope instance in memory. Writes are decided synchronously in call order against every
 * write decided before (durable or not), so concurrent writers serialize; each is appended to
 * the journal at once (appends issued together share one disk write) and becomes visible to
 * readers, listeners and its caller only once it and every write before it are durable. After
 * `compactAfter` writes (and at least one per key held), the state is written as a snapshot that
 * opens the next generation, dropping deleted and expired keys, so reading a scope instance
 * costs its live data plus at most one generation of writes, whatever its history.
 */
export class StatePartition {
  readonly #options: PartitionOptions;
  readonly #hooks: PartitionHooks;
  readonly #scope: string;
  readonly #id: string;
  readonly #keys: Map<string, StateEntry[]>;
  #generation: number;
  #revision: number;
  #durable: number;
  #sinceSnapshot: number;
  #pending: Pending[] = [];
  /** Appends not yet answered by the journal, and who waits for there to be none. */
  #inFlight = 0;
  #quietWaiters: (() => void)[] = [];
  #compacting = false;
  #broken: SharedStateError | undefined;

  constructor(loaded: LoadedPartition, options: PartitionOptions, hooks: PartitionHooks) {
    this.#options = options;
    this.#hooks = hooks;
    this.#scope = loaded.scope;
    this.#id = loaded.id;
    this.#keys = loaded.keys;
    this.#generation = loaded.generation;
    this.#revision = loaded.revision;
    this.#durable = loaded.revision;
    this.#sinceSnapshot = loaded.sinceSnapshot;
  }

  /** The journal partition of the current generation. */
  get journalKey(): string {
    return generationKey(this.#scope, this.#id, this.#generation);
  }

  /** The live durable entry of `key`. */
  get(key: string, now: number): StateEntry | undefined {
    const entry = this.#visible(key);
    return isLive(entry, now) ? entry : undefined;
  }

  /** Live durable entries whose key starts with `prefix`, ordered by key. */
  list(prefix: string, now: number): StateEntry[] {
    const found: StateEntry[] = [];
    for (const key of this.#keys.keys()) {
      if (!key.startsWith(prefix)) continue;
      const entry = this.get(key, now);
      if (entry) found.push(entry);
    }
    return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** The durable versions kept of `key`, oldest first. */
  history(key: string): StateEntry[] {
    return (this.#keys.get(key) ?? []).filter((entry) => entry.version <= this.#durable);
  }

  /** Resolves once every write decided so far is acknowledged or refused. */
  settled(): Promise<void> {
    const last = this.#pending.at(-1);
    if (!last) return Promise.resolve();
    return new Promise((resolve) => (last.waiters ??= []).push(resolve));
  }

  /** Resolves once no append of this partition is in flight (before it is read again). */
  quiet(): Promise<void> {
    if (this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#quietWaiters.push(resolve));
  }

  /** Decides an atomic write now: a conflict writes nothing; otherwise one new version for every key. */
  write(role: string, keys: readonly DecidedKey[], now: number): Promise<WriteResult> {
    if (this.#broken) return Promise.reject(this.#broken);
    const current = keys.map(({ key }) => {
      const entry = this.#keys.get(key)?.at(-1);
      return isLive(entry, now) ? entry : undefined;
    });
    for (const [i, { key, expectedVersion }] of keys.entries()) {
      const currentVersion = current[i]?.version ?? 0;
      if (expectedVersion !== undefined && expectedVersion !== currentVersion) {
        return Promise.resolve({ ok: false, conflict: { key, expectedVersion, currentVersion } });
      }
    }
    const version = ++this.#revision;
    const recorded: RecordedKey[] = keys.map((write, i) => {
      if (write.delete) return { key: write.key, deleted: true };
      const expiresAt = write.ttlMs !== undefined ? now + write.ttlMs : current[i]?.expiresAt;
      return expiresAt === undefined
        ? { key: write.key, value: write.value }
        : { key: write.key, value: write.value, expiresAt };
    });
    const entries = recorded.map((key) => makeEntry({ ...key, version, writtenBy: role, writtenAt: now }));
    for (const entry of entries) {
      const versions = this.#keys.get(entry.key);
      if (versions) versions.push(entry);
      else this.#keys.set(entry.key, [entry]);
    }
    this.#sinceSnapshot += 1;
    const record: StateRecord = { type: 'write', version, writtenBy: role, writtenAt: now, keys: recorded };
    return this.#append(version, entries, record, { ok: true, entries });
  }

  /** Writes the value `key` had at `toVersion` (or its deletion) as a new version. */
  rollback(role: string, key: string, toVersion: number, now: number): Promise<WriteResult> {
    const versions = this.#keys.get(key) ?? [];
    const target = versions.find((entry) => entry.version === toVersion);
    if (!target) {
      const kept = versions.map((entry) => entry.version).join(', ') || 'none';
      throw new SharedStateError(
        'version_not_found',
        `Key "${key}" has no version ${toVersion} kept (kept: ${kept}); the last ${this.#options.historyLimit} versions of a key are kept: roll back to one of them.`,
      );
    }
    return this.write(role, [target.deleted ? { key, delete: true } : { key, value: target.value }], now);
  }

  #visible(key: string): StateEntry | undefined {
    const versions = this.#keys.get(key);
    if (!versions) return undefined;
    for (let i = versions.length - 1; i >= 0; i--) {
      if (versions[i]!.version <= this.#durable) return versions[i];
    }
    return undefined;
  }

  #append(version: number, entries: StateEntry[], record: StateRecord, result: WriteResult): Promise<WriteResult> {
    return new Promise((resolve, reject) => {
      const item: Pending = { version, entries, result, done: false, resolve, reject };
      this.#pending.push(item);
      this.#inFlight += 1;
      this.#options.journal.append(this.journalKey, record).then(
        () => {
          this.#answered();
          item.done = true;
          this.#drain();
        },
        (error: unknown) => {
          this.#answered();
          this.#fail(error);
        },
      );
    });
  }

  #answered(): void {
    this.#inFlight -= 1;
    if (this.#inFlight === 0) for (const resolve of this.#quietWaiters.splice(0)) resolve();
  }

  /** Makes every acknowledged write at the head of the line visible, in version order. */
  #drain(): void {
    while (this.#pending[0]?.done) {
      const item = this.#pending.shift()!;
      this.#durable = item.version;
      for (const entry of item.entries) {
        this.#trim(this.#keys.get(entry.key)!);
        this.#hooks.changed(entry);
      }
      item.resolve(item.result);
      if (item.waiters) for (const wake of item.waiters) wake();
    }
    this.#maybeCompact();
  }

  /** Drops the oldest versions beyond the limit, never the one readers see. */
  #trim(versions: StateEntry[]): void {
    while (versions.length > this.#options.historyLimit && versions[1]!.version <= this.#durable) versions.shift();
  }

  #fail(error: unknown): void {
    if (!this.#broken) {
      const detail = errorMessage(error);
      this.#broken = new SharedStateError(
        'journal_unavailable',
        `The journal refused a write to ${this.#scope}/${this.#id} (${detail}). That write and those decided after it may or may not have been applied: read the keys again before retrying.`,
      );
      this.#hooks.broken();
    }
    for (const item of this.#pending.splice(0)) {
      item.reject(this.#broken);
      if (item.waiters) for (const wake of item.waiters) wake();
    }
  }

  #maybeCompact(): void {
    const due = Math.max(this.#options.compactAfter, this.#keys.size);
    if (this.#compacting || this.#broken || this.#sinceSnapshot < due) return;
    this.#compacting = true;
    const next = generationKey(this.#scope, this.#id, this.#generation + 1);
    // Touch the next generation first, so the snapshot and the writes after it append in order.
    this.#options.journal.lastSeq(next).then(
      (seq) => (seq === 0 ? this.#snapshot() : this.#fail(new Error(`${next} already holds entries`))),
      (error: unknown) => this.#fail(error),
    );
  }

  /** Opens the next generation with the state as decided so far (pending writes included). */
  #snapshot(): void {
    if (this.#broken) return;
    const now = this.#options.clock.now();
    for (const [key, versions] of this.#keys) {
      const last = versions.at(-1)!;
      if (last.version <= this.#durable && !isLive(last, now)) this.#keys.delete(key);
    }
    this.#generation += 1;
    this.#sinceSnapshot = 0;
    const keys = [...this.#keys.values()].map((versions) => versions.slice(-this.#options.historyLimit));
    const record: StateRecord = { type: 'snapshot', version: this.#revision, generation: this.#generation, keys };
    void this.#append(this.#revision, [], record, { ok: true, entries: [] }).then(
      () => (this.#compacting = false),
      () => undefined,
    );
  }
}
