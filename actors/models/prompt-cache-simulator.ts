import { createHash } from 'node:crypto';
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
  /**
   * The usage, and a fingerprint of the whole prompt (64 hex digits): equal prompts, equal
   * fingerprints; different ones differ (but for hash collisions).
   */
  read(prompt: CacheablePrompt): { usage: PromptCacheUsage; fingerprint: string };
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

/** Where a segment comes from: the object it is read from, and how (role, first block of its turn). */
interface SegmentSource {
  /** A tool, a system block, a content block, or a message whose content is a string. */
  owner: object;
  block: unknown;
  role: string | undefined;
  first: boolean;
}

/** Calls `visit` with each segment source of the prompt, in the order the model reads them (§4.2). */
function forEachSource(prompt: CacheablePrompt, visit: (source: SegmentSource) => void): void {
  for (const tool of prompt.tools ?? [])
    visit({ owner: isRecord(tool) ? tool : {}, block: tool, role: undefined, first: false });
  const system = typeof prompt.system === 'string' ? [{ type: 'text', text: prompt.system }] : (prompt.system ?? []);
  for (const block of system) visit({ owner: isRecord(block) ? block : {}, block, role: 'system', first: false });
  for (const message of prompt.messages) {
    const role = isRecord(message) && typeof message['role'] === 'string' ? message['role'] : 'user';
    const content = isRecord(message) ? message['content'] : undefined;
    if (typeof content === 'string') {
      visit({ owner: message as object, block: { type: 'text', text: content }, role, first: true });
      continue;
    }
    // A message without blocks still counts as a turn: one empty segment.
    if (!Array.isArray(content) || content.length === 0) {
      visit({ owner: {}, block: undefined, role, first: true });
      continue;
    }
    content.forEach((block, i) => visit({ owner: isRecord(block) ? block : {}, block, role, first: i === 0 }));
  }
}

/** A source's segment; a turn marker on the first block keeps turns apart, so two turns never hash like one. */
function segmentFrom({ block, role, first }: SegmentSource): Segment {
  const segment = block === undefined ? { text: '', breakpoint: false } : segmentOf(block, role);
  return first ? { ...segment, text: `\u0000turn:${segment.text}` } : segment;
}

/** The prompt as segments: tools, then system blocks, then each message's content blocks (§4.2 order). */
export function promptSegments(prompt: CacheablePrompt): Segment[] {
  const segments: Segment[] = [];
  forEachSource(prompt, (source) => segments.push(segmentFrom(source)));
  return segments;
}

/** The prefix up to and including a segment: two 32-bit hash lanes and its length in characters. */
interface Link {
  readonly a: number;
  readonly b: number;
  readonly chars: number;
}

const ROOT: Link = Object.freeze({ a: 0x6a09e667, b: 0xbb67ae85, chars: 0 });

/** What is remembered of a segment source: its segment's digest, and the link it made after `from`. */
interface KnownSegment {
  role: string | undefined;
  first: boolean;
  d1: number;
  d2: number;
  length: number;
  breakpoint: boolean;
  from?: Link;
  to?: Link;
}

/**
 * Segments by the (frozen) object they are read from. A session's prompts share their objects
 * from one call to the next (the tools, the conversation's earlier turns), so each segment is rendered and
 * hashed once, and its link is found again when it follows the same link: a prompt costs what its
 * new segments cost, not what the whole prompt does.
 */
const knownSegments = new WeakMap<object, KnownSegment>();

function knownSegmentOf(source: SegmentSource): KnownSegment {
  // Only a frozen object is sure to read the same next time.
  const remembered = Object.isFrozen(source.owner);
  const known = remembered ? knownSegments.get(source.owner) : undefined;
  if (known !== undefined && known.role === source.role && known.first === source.first) return known;
  const segment = segmentFrom(source);
  const digest = createHash('sha256').update(segment.text).digest();
  const fresh: KnownSegment = {
    role: source.role,
    first: source.first,
    d1: digest.readUInt32LE(0),
    d2: digest.readUInt32LE(4),
    length: segment.text.length,
    breakpoint: segment.breakpoint,
  };
  if (remembered) knownSegments.set(source.owner, fresh);
  return fresh;
}

/** The link after `from` with one more segment (a fast mix: the simulator faces no adversary). */
function linkAfter(from: Link, segment: KnownSegment): Link {
  let a = Math.imul(from.a ^ segment.d1, 0x9e3779b1);
  a = Math.imul(a ^ (a >>> 15) ^ segment.length, 0x85ebca6b);
  let b = Math.imul(from.b ^ segment.d2, 0xc2b2ae35);
  b = Math.imul(b ^ (b >>> 13) ^ from.a, 0x27d4eb2f);
  return { a: (a ^ (a >>> 16)) >>> 0, b: (b ^ (b >>> 16)) >>> 0, chars: from.chars + segment.length };
}

/** A prefix as one safe integer, for the set of written prefixes. */
const keyOf = (link: Link) => link.a * 0x200000 + (link.b & 0x1fffff);

/** The links of every segment of the prompt, in order, and which of them carry a breakpoint. */
function linksOf(prompt: CacheablePrompt): { links: Link[]; breakpoints: number[] } {
  const links: Link[] = [];
  const breakpoints: number[] = [];
  let link = ROOT;
  forEachSource(prompt, (source) => {
    const segment = knownSegmentOf(source);
    if (segment.from !== link || segment.to === undefined) {
      segment.from = link;
      segment.to = linkAfter(link, segment);
    }
    link = segment.to;
    if (segment.breakpoint) breakpoints.push(links.length);
    links.push(link);
  });
  return { links, breakpoints };
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
    const { links, breakpoints } = linksOf(prompt);
    const last = links.at(-1) ?? ROOT;
    // A hit counts only within the lookback before a breakpoint: only those prefixes are looked up.
    let readChars = 0;
    for (const bp of breakpoints) {
      for (let index = bp; index >= 0 && bp - index <= CACHE_LOOKBACK_BLOCKS; index--) {
        const link = links[index] as Link;
        if (link.chars <= readChars) break;
        if (written.has(keyOf(link))) {
          readChars = link.chars;
          break;
        }
      }
    }
    const lastBreakpoint = breakpoints.at(-1);
    const cachedEnd = Math.max(readChars, lastBreakpoint === undefined ? 0 : (links[lastBreakpoint] as Link).chars);
    for (const bp of breakpoints) remember(keyOf(links[bp] as Link));
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
