import type { CacheControlEphemeral, TextBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { BoundedCache } from '../../runtime/bounded-cache.ts';
import type { ConversationMessage } from '../../models/model-provider.ts';

/** The one cache control of every breakpoint (spec 001 §4.2). */
export const EPHEMERAL: CacheControlEphemeral = { type: 'ephemeral' };

/** Anything that may carry a cache breakpoint (tool definitions of every kind). */
export type Cacheable = { cache_control?: CacheControlEphemeral | null };

/** The marked copy of each tools array, made once: a loop passes the same tools every iteration. */
const markedTools = new WeakMap<readonly Cacheable[], readonly Cacheable[]>();

/**
 * Breakpoint 1: the tools, copied, with `cache_control` on the last definition only (any the
 * caller set elsewhere is dropped, so the request never exceeds four breakpoints). The copy of a
 * given array is made once and shared (frozen): the same tools give the same request prefix.
 */
export function withToolsBreakpoint<Tool extends Cacheable>(tools: readonly Tool[]): Tool[] {
  const known = markedTools.get(tools);
  if (known) return known as Tool[];
  const marked = tools.map((tool, index) => {
    const { cache_control: _dropped, ...rest } = tool;
    return Object.freeze(index === tools.length - 1 ? { ...rest, cache_control: EPHEMERAL } : rest) as Tool;
  });
  markedTools.set(tools, Object.freeze(marked));
  return marked;
}

/** The marked block of each text seen lately: the same text gives the same (frozen) block. */
const markedBlocks = new BoundedCache<string, TextBlockParam>({ maxEntries: 1000, idleMs: 10 * 60_000 });

function markedBlock(text: string): TextBlockParam {
  return (
    markedBlocks.get(text) ?? markedBlocks.set(text, Object.freeze({ type: 'text', text, cache_control: EPHEMERAL }))
  );
}

/**
 * Breakpoints 2 and 3: the system prompt and the user data XML, each its own cached block. The
 * blocks are shared and frozen: the same texts give the same blocks, so what reads a request may
 * remember what it read of them.
 */
export function systemBlocks(systemPrompt: string, userDataXml: string): TextBlockParam[] {
  return [markedBlock(systemPrompt), markedBlock(userDataXml)];
}

/**
 * Breakpoint 4: a copy of the messages with `cache_control` on the last content block of the
 * last message (a string content becomes one text block to carry it).
 */
export function withMessagesBreakpoint(messages: readonly ConversationMessage[]): ConversationMessage[] {
  const copy = [...messages];
  const last = copy.at(-1);
  if (last === undefined) return copy;
  const blocks = typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : [...last.content];
  const final = blocks.at(-1);
  if (final === undefined) return copy;
  blocks[blocks.length - 1] = { ...final, cache_control: EPHEMERAL } as typeof final;
  copy[copy.length - 1] = { ...last, content: blocks };
  return copy;
}
