import { createHash } from 'node:crypto';
import { FrozenPrefixFold } from './frozen-prefix-fold.ts';
import type { CacheablePrompt } from './prompt-cache-simulator.ts';

/*
 * A prompt as the cache simulator reads it: its segments (one per block, in the order the model
 * reads them) and the links (hashed prefixes) they make, each segment hashed once and each
 * conversation walked only past what an earlier call of it already walked.
 */

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

/** Calls `visit` with each segment source of the tools and the system blocks, in order (§4.2). */
function forEachHeadSource(prompt: CacheablePrompt, visit: (source: SegmentSource) => void): void {
  for (const tool of prompt.tools ?? [])
    visit({ owner: isRecord(tool) ? tool : {}, block: tool, role: undefined, first: false });
  const system = typeof prompt.system === 'string' ? [{ type: 'text', text: prompt.system }] : (prompt.system ?? []);
  for (const block of system) visit({ owner: isRecord(block) ? block : {}, block, role: 'system', first: false });
}

/** Calls `visit` with each segment source of one message: its content blocks, in order. */
function forEachMessageSource(message: unknown, visit: (source: SegmentSource) => void): void {
  const role = isRecord(message) && typeof message['role'] === 'string' ? message['role'] : 'user';
  const content = isRecord(message) ? message['content'] : undefined;
  if (typeof content === 'string') {
    visit({ owner: message as object, block: { type: 'text', text: content }, role, first: true });
    return;
  }
  // A message without blocks still counts as a turn: one empty segment.
  if (!Array.isArray(content) || content.length === 0) {
    visit({ owner: {}, block: undefined, role, first: true });
    return;
  }
  content.forEach((block, i) => visit({ owner: isRecord(block) ? block : {}, block, role, first: i === 0 }));
}

/** Calls `visit` with each segment source of the prompt, in the order the model reads them (§4.2). */
function forEachSource(prompt: CacheablePrompt, visit: (source: SegmentSource) => void): void {
  forEachHeadSource(prompt, visit);
  for (const message of prompt.messages) forEachMessageSource(message, visit);
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
export interface Link {
  readonly a: number;
  readonly b: number;
  readonly chars: number;
}

export const ROOT: Link = Object.freeze({ a: 0x6a09e667, b: 0xbb67ae85, chars: 0 });

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
export const keyOf = (link: Link) => link.a * 0x200000 + (link.b & 0x1fffff);

/** The link a segment makes after `link`, remembered with the segment while it follows the same link. */
function chained(link: Link, segment: KnownSegment): Link {
  if (segment.from !== link || segment.to === undefined) {
    segment.from = link;
    segment.to = linkAfter(link, segment);
  }
  return segment.to;
}

/** The links of the messages up to one of them (each state is never changed once made). */
interface MessageLinks {
  /** How many message segments come before this message's. */
  start: number;
  /** The link after each segment of this message. */
  links: Link[];
  /** The link after this message (the tools' and system's last one before any message). */
  end: Link;
  /** The breakpoints among the message segments so far, latest first (index among them). */
  breaks: { index: number; next: MessageLinks['breaks'] } | undefined;
  previous: MessageLinks | undefined;
}

function nextMessageLinks(previous: MessageLinks, message: unknown): MessageLinks {
  const start = previous.start + previous.links.length;
  const links: Link[] = [];
  let { end: link, breaks } = previous;
  forEachMessageSource(message, (source) => {
    const segment = knownSegmentOf(source);
    link = chained(link, segment);
    if (segment.breakpoint) breaks = { index: start + links.length, next: breaks };
    links.push(link);
  });
  return { start, links, end: link, breaks, previous };
}

/** Whether a message reads the same next time: it, its content and each of its blocks frozen. */
const isFrozenMessage = (message: unknown): boolean => {
  if (!isRecord(message) || !Object.isFrozen(message)) return false;
  const content = message['content'];
  return (
    typeof content === 'string' ||
    (Array.isArray(content) && Object.isFrozen(content) && content.every((b) => !isRecord(b) || Object.isFrozen(b)))
  );
};

/**
 * The message links of each conversation: a session's calls send its earlier messages again as
 * the same frozen objects, so a call walks only its new messages (see `FrozenPrefixFold`).
 */
const messageLinks = new FrozenPrefixFold<object, MessageLinks>(
  nextMessageLinks as (state: MessageLinks, message: object) => MessageLinks,
  { start: 0, links: [], end: ROOT, breaks: undefined, previous: undefined },
  isFrozenMessage,
);

/** Where the messages start from, one per link after the tools and system (the fold's start). */
const startsAfter = new WeakMap<Link, MessageLinks>();

/** The links of every segment of the prompt, by index, and which of them carry a breakpoint. */
export function linksOf(prompt: CacheablePrompt): {
  linkAt: (index: number) => Link;
  length: number;
  breakpoints: number[];
} {
  const head: Link[] = [];
  const breakpoints: number[] = [];
  let link = ROOT;
  forEachHeadSource(prompt, (source) => {
    const segment = knownSegmentOf(source);
    link = chained(link, segment);
    if (segment.breakpoint) breakpoints.push(head.length);
    head.push(link);
  });
  let start = startsAfter.get(link);
  if (start === undefined)
    startsAfter.set(link, (start = { start: 0, links: [], end: link, breaks: undefined, previous: undefined }));
  const last = messageLinks.fold(prompt.messages as object[], start);
  const inMessages: number[] = [];
  for (let at = last.breaks; at !== undefined; at = at.next) inMessages.push(head.length + at.index);
  breakpoints.push(...inMessages.reverse());
  const linkAt = (index: number): Link => {
    if (index < head.length) return head[index] as Link;
    let state = last;
    while (state.start > index - head.length) state = state.previous!;
    return state.links[index - head.length - state.start] as Link;
  };
  return { linkAt, length: head.length + last.start + last.links.length, breakpoints };
}
