import { describe, expect, it } from 'vitest';
import { createPromptCacheSimulator, promptSegments } from '../../../../actors/models/prompt-cache-simulator.ts';
import { estimatePromptTokens, estimateTokens, renderPrompt } from '../../../../actors/models/token-estimate.ts';

const EPHEMERAL = { type: 'ephemeral' };
const tools = [
  { name: 'a', description: 'x'.repeat(4000), input_schema: { type: 'object' } },
  { name: 'b', description: 'y'.repeat(4000), input_schema: { type: 'object' }, cache_control: EPHEMERAL },
];
const system = [
  { type: 'text', text: 'system prompt '.repeat(200), cache_control: EPHEMERAL },
  { type: 'text', text: '<user_data>...</user_data>', cache_control: EPHEMERAL },
];
const withLastMarked = (messages: { role: string; content: { type: string; [k: string]: unknown }[] }[]) =>
  messages.map((message, m) =>
    m === messages.length - 1
      ? {
          ...message,
          content: message.content.map((b, i) =>
            i === message.content.length - 1 ? { ...b, cache_control: EPHEMERAL } : b,
          ),
        }
      : message,
  );

describe('token estimate (spec 001 §11.4)', () => {
  it('is characters / 4 rounded up', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
    const parts = { system, tools, messages: [{ role: 'user', content: 'hi' }] };
    expect(estimatePromptTokens(parts)).toBe(Math.ceil(renderPrompt(parts).length / 4));
  });
});

describe('prompt cache simulator', () => {
  it('writes everything on the first request and reads the shared prefix on the next', () => {
    const cache = createPromptCacheSimulator();
    const turn1 = withLastMarked([{ role: 'user', content: [{ type: 'text', text: 'Give me a chest workout' }] }]);
    const first = cache.usageFor({ tools, system, messages: turn1 });
    expect(first.cache_read_input_tokens).toBe(0);
    expect(first.cache_creation_input_tokens).toBeGreaterThan(2000);
    expect(first.input_tokens).toBe(0);

    const turn2 = withLastMarked([
      { role: 'user', content: [{ type: 'text', text: 'Give me a chest workout' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'generate_workout', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] },
    ]);
    const second = cache.usageFor({ tools, system, messages: turn2 });
    const total = second.cache_read_input_tokens + second.cache_creation_input_tokens + second.input_tokens;
    // Everything the first request wrote is read, including the old last-message breakpoint.
    expect(second.cache_read_input_tokens).toBe(first.cache_creation_input_tokens);
    expect(second.cache_read_input_tokens / total).toBeGreaterThan(0.5);
    expect(second.cache_creation_input_tokens).toBeGreaterThan(0);
  });

  it('misses from the first changed block on: a new user data block invalidates what follows it', () => {
    const cache = createPromptCacheSimulator();
    const messages = withLastMarked([{ role: 'user', content: [{ type: 'text', text: 'hello' }] }]);
    cache.usageFor({ tools, system, messages });
    const changed = [system[0], { ...system[1], text: '<user_data>moved</user_data>' }];
    const usage = cache.usageFor({ tools, system: changed, messages });
    const toolsAndPrompt = promptSegments({ tools, system, messages: [] })
      .slice(0, 3)
      .reduce((sum, segment) => sum + segment.text.length, 0);
    expect(usage.cache_read_input_tokens).toBe(Math.ceil(toolsAndPrompt / 4));
    expect(usage.cache_creation_input_tokens).toBeGreaterThan(0);
  });

  it('reads nothing without breakpoints, and ignores where cache_control sits when matching prefixes', () => {
    const cache = createPromptCacheSimulator();
    const plain = {
      tools: tools.map(({ cache_control: _c, ...rest }) => rest),
      system: 'plain',
      messages: [{ role: 'user', content: 'x' }],
    };
    cache.usageFor(plain);
    const again = cache.usageFor(plain);
    expect(again.cache_read_input_tokens).toBe(0);
    expect(again.cache_creation_input_tokens).toBe(0);
    expect(again.input_tokens).toBeGreaterThan(0);
    expect(cache.size).toBe(0);
  });

  it('forgets the oldest prefixes beyond its capacity', () => {
    const cache = createPromptCacheSimulator({ maxEntries: 2 });
    for (const text of ['one', 'two', 'three']) {
      cache.usageFor({ system: [{ type: 'text', text, cache_control: EPHEMERAL }], messages: [] });
    }
    expect(cache.size).toBe(2);
    expect(
      cache.usageFor({ system: [{ type: 'text', text: 'one', cache_control: EPHEMERAL }], messages: [] })
        .cache_read_input_tokens,
    ).toBe(0);
  });
});
