import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import {
  EPHEMERAL,
  systemBlocks,
  withMessagesBreakpoint,
  withToolsBreakpoint,
} from '../../../../../actors/trainer/context/context-builder-cache.ts';
import type { ConversationMessage } from '../../../../../actors/models/model-provider.ts';

const tool = (name: string, extra: Partial<Tool> = {}): Tool => ({
  name,
  description: name,
  input_schema: { type: 'object', properties: {} },
  ...extra,
});

describe('cache breakpoints (spec 001 §4.2)', () => {
  it('1: marks the last tool definition only, without touching the input', () => {
    const tools = [tool('a', { cache_control: EPHEMERAL }), tool('b'), tool('c')];
    const marked = withToolsBreakpoint(tools);
    expect(marked.map((t) => t.cache_control)).toEqual([undefined, undefined, EPHEMERAL]);
    expect(marked.map((t) => t.name)).toEqual(['a', 'b', 'c']);
    expect(tools[0]?.cache_control).toEqual(EPHEMERAL);
    expect(tools[2]?.cache_control).toBeUndefined();
    expect(withToolsBreakpoint([])).toEqual([]);
  });

  it('2 and 3: caches the system prompt and the user data XML as separate blocks', () => {
    expect(systemBlocks('You are a trainer.', '<user_data>\n</user_data>')).toEqual([
      { type: 'text', text: 'You are a trainer.', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: '<user_data>\n</user_data>', cache_control: { type: 'ephemeral' } },
    ]);
  });

  it('4: marks the last content block of the last message, turning a string into a block', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'first' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'idle', input: {} }] },
      { role: 'user', content: 'last' },
    ];
    const marked = withMessagesBreakpoint(messages);
    expect(marked.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'last', cache_control: EPHEMERAL }],
    });
    expect(marked.slice(0, 2)).toEqual(messages.slice(0, 2));
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'last' });
  });

  it('4: marks only the final block of a multi-block message', () => {
    const messages: ConversationMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'c1', content: 'ok' },
          { type: 'text', text: 'note' },
        ],
      },
    ];
    const [only] = withMessagesBreakpoint(messages);
    expect(only?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'c1', content: 'ok' },
      { type: 'text', text: 'note', cache_control: EPHEMERAL },
    ]);
    expect(JSON.stringify(messages)).not.toContain('cache_control');
  });
});
