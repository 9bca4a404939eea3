import { createHash } from 'node:crypto';

/**
 * A UUID v4-shaped id derived from its parts (sha256, version and variant bits set). The same
 * parts always give the same id, so work redone after a restart produces the same message ids
 * and the supervisor can tell a redelivery from a new message.
 */
export function derivedUuid(...parts: readonly (string | number)[]): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A number in [0, 1) derived from its parts (sha256): a random draw that work redone (after a
 * restart, or a handler replayed on Restate) draws again the same, such as a retry's jitter.
 *
 * @example
 * senderRetryDelay({ ...policy, random: () => derivedFraction('retry', messageId, attempt) });
 */
export function derivedFraction(...parts: readonly (string | number)[]): number {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  return parseInt(hex.slice(0, 12), 16) / 2 ** 48;
}
