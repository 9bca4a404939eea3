import type { ServiceClock } from '../clock.ts';

/**
 * One version of a key. `version` is the revision of its scope instance at the write that made
 * it: it grows with every write to that scope instance, is shared by the keys of one atomic
 * write, and is never reused (so a compare-and-set never mistakes a key deleted and written
 * again for the one it read). Entries and their values are frozen.
 */
export interface StateEntry<V = unknown> {
  key: string;
  value: V;
  version: number;
  /** The role that wrote it. */
  writtenBy: string;
  /** Clock time of the write (ms). */
  writtenAt: number;
  /** Absolute clock time (ms) from which the entry reads as absent. */
  expiresAt?: number;
  /** Set on a deletion: seen only in `history` and by `watch` listeners, never by `get`/`list`. */
  deleted?: true;
}

/**
 * One key of an atomic write: a `value` to store or `delete: true`. `expectedVersion` makes it a
 * compare-and-set: the version last read (`0` = the key must be absent, deleted or expired).
 * `ttlMs` sets the expiry to now + ttlMs; a write without it keeps the key's current expiry, so a
 * TTL runs from the write that set it and an update does not extend it.
 */
export interface StateWrite {
  key: string;
  value?: unknown;
  delete?: true;
  expectedVersion?: number;
  ttlMs?: number;
}

/** Written (every entry, in the order given), or refused because one key had moved on: nothing written. */
export type WriteResult =
  | { ok: true; entries: StateEntry[] }
  | { ok: false; conflict: { key: string; expectedVersion: number; currentVersion: number } };

/** Told each durable change under a prefix (a deletion has `deleted: true`), once, in version order. */
export type StateListener = (change: StateEntry) => void;

/**
 * A journaled key-value store shared by the agents of a system, opened by `openSharedState`.
 * Keys are `<namespace>/<rest>`; the system's schema gives each namespace a scope and a
 * write-permission table. Reads see only durable writes and wait for the writes decided before
 * them, so a reader sees its own writes and every write acknowledged before it asked.
 */
export interface SharedState {
  /** The clock TTLs are measured on (and `updateWithRetry` backs off on). */
  readonly clock: ServiceClock;
  /** The live entry of `key`; a deleted or expired one reads as absent. */
  get(key: string): Promise<StateEntry | undefined>;
  /** Live entries whose key starts with `prefix`, ordered by key. */
  list(prefix: string): Promise<StateEntry[]>;
  /** Writes every key or none; resolves once durable. Throws `SharedStateError` for a write `role` may not make. */
  write(role: string, writes: StateWrite[]): Promise<WriteResult>;
  /** The durable versions of `key` still kept (the last `historyLimit`, deletions included), oldest first. */
  history(key: string): Promise<StateEntry[]>;
  /** Writes the value `key` had at `toVersion` as a new version (a deletion if it was one). */
  rollback(role: string, key: string, toVersion: number): Promise<WriteResult>;
  /** Calls `listener` with each durable change under `prefix`; returns the unsubscribe. */
  watch(prefix: string, listener: StateListener): () => void;
  /** Waits for this view's writes, drops its watchers and lets its scope instances leave memory. */
  close(): Promise<void>;
}
