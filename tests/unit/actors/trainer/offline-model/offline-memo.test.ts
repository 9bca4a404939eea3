import { describe, expect, it } from 'vitest';
import { withMessagesBreakpoint } from '../../../../../actors/trainer/context/context-builder-cache.ts';
import { ConversationBuilder } from '../../../../../actors/trainer/context/context-builder-messages.ts';
import { createPromptCacheSimulator } from '../../../../../actors/models/prompt-cache-simulator.ts';
import type { ModelProvider, ModelRequest } from '../../../../../actors/models/model-provider.ts';
import { readConversation } from '../../../../../actors/trainer/offline-model/conversation-view.ts';
import { createOfflineProvider } from '../../../../../actors/trainer/offline-model/offline-provider.ts';
import type { ContextEvent } from '../../../../../protocol/trainer/session-event.ts';
import { asEvents } from '../../../../support/trainer/trainer-events.ts';
import { createLoopDriver } from './offline-loop-driver.ts';

/**
 * A provider that sends the offline model the conversation as the server does (one builder,
 * built on from call to call, so earlier messages are the same frozen objects) and checks that
 * what is read of it, and the cache usage, equal what a fresh copy of the request gives (a copy is
 * not frozen, so nothing of it is remembered).
 */
function checkedProvider() {
  const offline = createOfflineProvider();
  const remembered = createPromptCacheSimulator();
  const fresh = createPromptCacheSimulator();
  const builder = new ConversationBuilder();
  let built = 0;
  let calls = 0;
  const provider = (rowsOf: () => readonly Pick<ContextEvent, 'event_type' | 'data'>[]): ModelProvider => ({
    ...offline,
    async call(request, signal) {
      const events = asEvents(rowsOf()) as ContextEvent[];
      for (; built < events.length; built++) builder.add(events[built]!);
      const shared: ModelRequest = { ...request, messages: withMessagesBreakpoint(builder.messages()) };
      expect(shared.messages).toEqual(request.messages);
      const copy = structuredClone(shared);
      expect(readConversation(shared)).toEqual(readConversation(copy));
      expect(remembered.read(shared)).toEqual(fresh.read(copy));
      calls += 1;
      return offline.call(shared, signal);
    },
  });
  return { provider, calls: () => calls };
}

describe('the offline model reading a growing conversation', () => {
  it('reads and caches what it would read from scratch, call after call', async () => {
    const checked = checkedProvider();
    // The driver's rows are the conversation the server would hold: read when each call comes.
    const driver: ReturnType<typeof createLoopDriver> = createLoopDriver({
      provider: checked.provider(() => driver.rows),
    });
    for (const message of [
      'Give me a quick chest workout',
      'Swap the first exercise',
      'Make exercise 1 harder',
      'Remove exercise 2',
      'Thanks!',
      'Now a leg workout please',
    ])
      await driver.turn(message);
    expect(checked.calls()).toBeGreaterThan(12);
  });

  it('reads a remembered message again when it follows other messages', () => {
    const frozen = <T>(value: T): T => JSON.parse(JSON.stringify(value), (_key, item) => Object.freeze(item));
    const workout = frozen({
      role: 'user',
      content: [{ type: 'text', text: '<knowledge source="muscle_goals">\n- Chest: 50%\n</knowledge>' }],
    }) as ModelRequest['messages'][number];
    const system = [{ type: 'text' as const, text: '<user_data>\n</user_data>' }];
    const request = (...messages: ModelRequest['messages']): ModelRequest => ({
      model: 'claude-haiku-4-5',
      system,
      tools: [],
      messages,
    });
    const first = request(frozen({ role: 'user', content: 'Give me a chest workout' }), workout);
    const second = request(
      frozen({ role: 'user', content: 'Hello' }),
      frozen({ role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'idle', input: {} }] }),
      workout,
    );
    const remembered = createPromptCacheSimulator();
    const fresh = createPromptCacheSimulator();
    for (const sent of [first, second, first]) {
      expect(readConversation(sent)).toEqual(readConversation(structuredClone(sent)));
      expect(remembered.read(sent)).toEqual(fresh.read(structuredClone(sent)));
    }
  });
});
