import { createHash } from 'node:crypto';

/**
 * Serializes a value as JSON with object keys sorted by code unit, so that equal inputs give equal
 * text whatever order their keys were built in. Follows `JSON.stringify` otherwise: `toJSON` is
 * honoured, `undefined`/functions/symbols are dropped from objects and become `null` in arrays,
 * non-finite numbers become `null`. A top-level value with no JSON form serializes as `null`.
 *
 * @throws TypeError on a cycle or a bigint, as `JSON.stringify` does.
 */
export function canonicalJson(value: unknown): string {
  return serialize(value, new Set()) ?? 'null';
}

/** sha256 hex of {@link canonicalJson}: the `input_hash` of a timeout failure (§6.1). */
export function inputHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

// Returns undefined for values JSON has no form for, so the caller can drop or null them.
function serialize(raw: unknown, ancestors: Set<object>): string | undefined {
  const value = hasToJson(raw) ? raw.toJSON() : raw;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'bigint':
      throw new TypeError('canonicalJson cannot serialize a bigint; convert it to a string first.');
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (value === null) return 'null';
  const object = value as object;
  if (ancestors.has(object)) {
    throw new TypeError('canonicalJson cannot serialize a cyclic structure.');
  }
  ancestors.add(object);
  try {
    if (Array.isArray(object)) {
      return `[${object.map((item) => serialize(item, ancestors) ?? 'null').join(',')}]`;
    }
    const record = object as Record<string, unknown>;
    const members: string[] = [];
    for (const key of Object.keys(record).sort()) {
      const text = serialize(record[key], ancestors);
      if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
    }
    return `{${members.join(',')}}`;
  } finally {
    ancestors.delete(object);
  }
}

function hasToJson(value: unknown): value is { toJSON(): unknown } {
  return typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function';
}
