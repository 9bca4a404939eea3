import { SharedStateError } from './shared-state-error.ts';
import type { StateEntry } from './shared-state.ts';

/** The fields of a version, as written or as read back from the journal. */
export interface EntryFields {
  key: string;
  value?: unknown;
  version: number;
  writtenBy: string;
  writtenAt: number;
  expiresAt?: number | undefined;
  deleted?: true | undefined;
}

/** A frozen entry with one shape whether it was just written or read back after a restart. */
export function makeEntry(fields: EntryFields): StateEntry {
  const entry: StateEntry = {
    key: fields.key,
    value: fields.deleted ? undefined : fields.value,
    version: fields.version,
    writtenBy: fields.writtenBy,
    writtenAt: fields.writtenAt,
  };
  if (fields.expiresAt !== undefined) entry.expiresAt = fields.expiresAt;
  if (fields.deleted) entry.deleted = true;
  return Object.freeze(entry);
}

/** True when `entry` reads as present at `now`: neither a deletion nor expired. */
export function isLive(entry: StateEntry | undefined, now: number): entry is StateEntry {
  return entry !== undefined && !entry.deleted && (entry.expiresAt === undefined || entry.expiresAt > now);
}

/**
 * A frozen JSON copy of `value`: what a reader gets now is what it gets after a restart (Dates
 * become strings), and nobody can change a stored value behind the store's back.
 */
export function frozenJsonCopy(key: string, value: unknown): unknown {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined; // a BigInt or a cycle
  }
  if (json === undefined) {
    throw new SharedStateError(
      'invalid_write',
      `The value of "${key}" is not JSON (undefined, a function, a BigInt or a cycle): store plain data, or write { key, delete: true } to remove the key.`,
    );
  }
  return deepFreeze(JSON.parse(json));
}

/** Freezes a JSON value and everything inside it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
