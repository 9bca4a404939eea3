import { createHash, type Hash } from 'node:crypto';
import { CHARS_PER_TOKEN } from './token-estimate.ts';

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
  /** How many prefixes are remembered. */
  readonly size: number;
}

/** One block of the prompt in the order the model reads it; `breakpoint` when it carries cache_control. */
interface Segment {
  text: string;
  breakpoint: boolean;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A block's text without its cache_control: a prefix is the same whether or not it was marked. */
function segmentOf(block: unknown, role?: string): Segment {
  if (!isRecord(block)) return { text: JSON.stringify(role ? { role, block } : block) ?? '', breakpoint: false };
  const { cache_control, ...rest } = block;
  const body = role ? { role, ...rest } : rest;
  return { text: JSON.stringify(body), breakpoint: cache_control !== undefined && cache_control !== null };
}

/** The prompt as segments: tools, then system blocks, then each message's content blocks (§4.2 order). */
export function promptSegments(prompt: CacheablePrompt): Segment[] {
  const segments: Segment[] = (prompt.tools ?? []).map((tool) => segmentOf(tool));
  const system = typeof prompt.system === 'string' ? [{ type: 'text', text: prompt.system }] : (prompt.system ?? []);
  segments.push(...system.map((block) => segmentOf(block, 'system')));
  for (const message of prompt.messages) {
    const role = isRecord(message) && typeof message['role'] === 'string' ? message['role'] : 'user';
    const content = isRecord(message) ? message['content'] : undefined;
    const blocks =
      typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : [];
    // A turn marker on the first block keeps turns apart, so two turns never hash like one.
    const turn = blocks.map((block) => segmentOf(block, role));
    const first = turn[0] ?? { text: '', breakpoint: false };
    turn[0] = { ...first, text: `\u0000turn:${first.text}` };
    segments.push(...turn);
  }
  return segments;
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
 * The API's minimum cacheable length and five-minute lifetime are not simulated.
 *
 * @example
 * const cache = createPromptCacheSimulator();
 * cache.usageFor(firstRequest);  // all written
 * cache.usageFor(secondRequest); // the shared prefix read
 */
export function createPromptCacheSimulator(options: { maxEntries?: number } = {}): PromptCacheSimulator {
  const maxEntries = options.maxEntries ?? 10_000;
  const written = new Set<string>();
  const remember = (key: string) => {
    written.delete(key);
    written.add(key);
    if (written.size > maxEntries) {
      const oldest = written.values().next().value;
      if (oldest !== undefined) written.delete(oldest);
    }
  };
  return {
    get size() {
      return written.size;
    },
    usageFor(prompt) {
      const hash: Hash = createHash('sha256');
      let chars = 0;
      const hits: { index: number; chars: number }[] = [];
      const breakpoints: { index: number; chars: number; key: string }[] = [];
      promptSegments(prompt).forEach((segment, index) => {
        hash.update(segment.text);
        hash.update('\u0001');
        chars += segment.text.length;
        const key = `${chars}:${hash.copy().digest('base64')}`;
        if (written.has(key)) hits.push({ index, chars });
        if (segment.breakpoint) breakpoints.push({ index, chars, key });
      });
      const readable = hits.filter((hit) =>
        breakpoints.some((bp) => bp.index >= hit.index && bp.index - hit.index <= CACHE_LOOKBACK_BLOCKS),
      );
      const readChars = Math.max(0, ...readable.map((hit) => hit.chars));
      const cachedEnd = Math.max(readChars, breakpoints.at(-1)?.chars ?? 0);
      for (const { key } of breakpoints) remember(key);
      const read = tokensOf(readChars);
      return {
        input_tokens: tokensOf(chars) - tokensOf(cachedEnd),
        cache_creation_input_tokens: tokensOf(cachedEnd) - read,
        cache_read_input_tokens: read,
      };
    },
  };
}
