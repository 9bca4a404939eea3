import { createHash } from 'node:crypto';
import { keyOf, linksOf, ROOT } from './prompt-cache-links.ts';
import { CHARS_PER_TOKEN } from './token-estimate.ts';

export { promptSegments } from './prompt-cache-links.ts';

/** A Messages API request as JSON (the fields caching depends on). */
export interface CacheablePrompt {
  tools?: readonly unknown[] | undefined;
  system?: string | readonly unknown[] | undefined;
  messages: readonly unknown[];
}

/** Token counts in the Messages API's usage fields. */
export interface PromptCacheUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export interface PromptCacheSimulator {
  /** Reports the usage of `prompt` and remembers its breakpoint prefixes as written. */
  usageFor(prompt: CacheablePrompt): PromptCacheUsage;
  /**
   * The usage, and a fingerprint of the whole prompt (64 hex digits): equal prompts, equal
   * fingerprints; different ones differ (but for hash collisions).
   */
  read(prompt: CacheablePrompt): { usage: PromptCacheUsage; fingerprint: string };
  /** How many prefixes are remembered. */
  readonly size: number;
}

const tokensOf = (chars: number) => Math.ceil(chars / CHARS_PER_TOKEN);

/** How far before a breakpoint the API looks for an earlier cache entry, in blocks. */
const CACHE_LOOKBACK_BLOCKS = 20;

/**
 * Simulates Anthropic prompt caching well enough for tests and the offline model: each
 * breakpoint writes the prefix up to it; a later request reads the longest prefix that an
 * earlier request wrote and that ends at a block boundary at most 20 blocks before one of its
 * own breakpoints (the API's lookback, which finds the old last-message breakpoint after the
 * conversation grew). Reads cover that prefix, writes the rest up to the last breakpoint, and
 * `input_tokens` what follows it. Tokens are estimated at four characters each (§11.4).
 * The API's minimum cacheable length and five-minute lifetime are not simulated. Prefixes are
 * compared by a hash of their segments, each segment hashed once (see `knownSegments`).
 *
 * @example
 * const cache = createPromptCacheSimulator();
 * cache.usageFor(firstRequest);  // all written
 * cache.usageFor(secondRequest); // the shared prefix read
 */
export function createPromptCacheSimulator(options: { maxEntries?: number } = {}): PromptCacheSimulator {
  const maxEntries = options.maxEntries ?? 10_000;
  const written = new Set<number>();
  const remember = (key: number) => {
    written.delete(key);
    written.add(key);
    if (written.size > maxEntries) {
      const oldest = written.values().next().value;
      if (oldest !== undefined) written.delete(oldest);
    }
  };
  const read = (prompt: CacheablePrompt) => {
    const { linkAt, length, breakpoints } = linksOf(prompt);
    const last = length === 0 ? ROOT : linkAt(length - 1);
    // A hit counts only within the lookback before a breakpoint: only those prefixes are looked up.
    let readChars = 0;
    for (const bp of breakpoints) {
      for (let index = bp; index >= 0 && bp - index <= CACHE_LOOKBACK_BLOCKS; index--) {
        const link = linkAt(index);
        if (link.chars <= readChars) break;
        if (written.has(keyOf(link))) {
          readChars = link.chars;
          break;
        }
      }
    }
    const lastBreakpoint = breakpoints.at(-1);
    const cachedEnd = Math.max(readChars, lastBreakpoint === undefined ? 0 : linkAt(lastBreakpoint).chars);
    for (const bp of breakpoints) remember(keyOf(linkAt(bp)));
    const readTokens = tokensOf(readChars);
    const usage: PromptCacheUsage = {
      input_tokens: tokensOf(last.chars) - tokensOf(cachedEnd),
      cache_creation_input_tokens: tokensOf(cachedEnd) - readTokens,
      cache_read_input_tokens: readTokens,
    };
    const fingerprint = createHash('sha256').update(`${last.a}:${last.b}:${last.chars}`).digest('hex');
    return { usage, fingerprint };
  };
  return {
    get size() {
      return written.size;
    },
    read,
    usageFor: (prompt) => read(prompt).usage,
  };
}
