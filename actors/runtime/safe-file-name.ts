import { ValidationError } from '../../protocol/runtime/runtime-error.ts';

/** Longest encoded name we accept, so that `name + extension` stays under the usual 255 bytes. */
const MAX_ENCODED_LENGTH = 240;

/** Bytes kept as they are; everything else becomes `%xx`. */
const KEPT = /^[a-z0-9_-]$/;

/**
 * Encodes a key (a partition, a collection name segment) into a file name that is safe on every
 * file system and reversible with `decodeFileName`: each UTF-8 byte outside `[a-z0-9_-]` becomes
 * `%xx` (lowercase hex). Upper-case letters are escaped too, so keys that differ only in case
 * never share a file on a case-insensitive file system; `.` is escaped, so `..` cannot escape.
 *
 * @example encodeFileName('user/Session.1') // 'user%2f%53ession%2e1'
 */
export function encodeFileName(key: string, what = 'key'): string {
  if (key.length === 0) {
    throw new ValidationError(`The ${what} is empty: give it at least one character.`, [
      { path: what, message: 'must not be empty' },
    ]);
  }
  let out = '';
  for (const byte of Buffer.from(key, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += KEPT.test(char) ? char : `%${byte.toString(16).padStart(2, '0')}`;
  }
  if (out.length > MAX_ENCODED_LENGTH) {
    throw new ValidationError(`The ${what} "${key.slice(0, 40)}..." is too long to name a file: shorten it.`, [
      { path: what, message: `encodes to ${out.length} characters, over ${MAX_ENCODED_LENGTH}` },
    ]);
  }
  return out;
}

/**
 * The key that `encodeFileName` turned into `name`, or `undefined` when `name` is not something
 * it produces (so a stray file is never mistaken for data).
 */
export function decodeFileName(name: string): string | undefined {
  if (!/^(?:[a-z0-9_-]|%[0-9a-f]{2})+$/.test(name)) return undefined;
  try {
    const key = decodeURIComponent(name);
    // Only the canonical spelling counts: `%61` for `a` would alias the file `a`.
    return encodeFileName(key) === name ? key : undefined;
  } catch {
    return undefined; // invalid UTF-8, or too long to be one of ours
  }
}
