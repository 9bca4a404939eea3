import { describe, expect, it } from 'vitest';
import { createContextBuilder } from '../../../../../actors/trainer/context/context-builder.ts';
import { createEventStore } from '../../../../../actors/trainer/events/event-store.ts';
import { PromptLog } from '../../../../../actors/trainer/loop/loop-prompt-log.ts';
import { getToolDefinitions } from '../../../../../actors/trainer/tools/tool-registry.ts';
import { createDataSources } from '../../../../../actors/trainer/user-data/data-sources.ts';
import { createUserDataStore } from '../../../../../actors/trainer/user-data/user-data-store.ts';
import { estimateTokens, renderPrompt } from '../../../../../actors/models/token-estimate.ts';
import type { StoredSessionEvent } from '../../../../../protocol/trainer/session-event.ts';
import { createFakeJournal, createFakeStore } from '../../../../support/trainer/trainer-fakes.ts';

/** The prompt whole again, from the first logged request and the changes logged after it. */
function replay(logged: { prompt: string; prompt_from_message?: number }[]) {
  let whole: { tools: unknown; system: unknown; messages: unknown[] } | undefined;
  return logged.map(({ prompt, prompt_from_message: from }) => {
    const part = JSON.parse(prompt);
    if (from === undefined) whole = part;
    else
      whole = {
        tools: part.tools ?? whole!.tools,
        system: part.system ?? whole!.system,
        messages: [...whole!.messages.slice(0, from), ...part.messages],
      };
    return whole;
  });
}

describe('PromptLog', () => {
  it('logs the first request whole and then what changed, and the log gives every prompt back', async () => {
    const store = createFakeStore();
    const events = createEventStore({ store, journal: createFakeJournal<StoredSessionEvent>() });
    const userData = createUserDataStore(store);
    const builder = createContextBuilder({
      events,
      dataSources: createDataSources({ userData }),
      systemPrompt: 'You are a personal trainer.',
      tools: getToolDefinitions(),
    });
    const prompts = new PromptLog();
    const session = await events.createSession('alice');
    const sent: string[] = [];
    const logged: { prompt: string; prompt_from_message?: number; estimated_tokens: number }[] = [];
    const request = async () => {
      const context = await builder.build(session.id, 'alice');
      const entry = prompts.entryFor('claude-haiku-4-5', context);
      entry.logged();
      sent.push(renderPrompt(context));
      logged.push(entry.data);
    };
    await events.appendEvent(session.id, 'user_message', { message: 'Give me a chest workout' });
    await request();
    for (let n = 1; n <= 6; n++) {
      await events.appendEvents(session.id, [
        { type: 'tool_call', data: { tool_name: 'idle', arguments: { n }, call_id: `c${n}` } },
        { type: 'tool_result', data: { tool_name: 'idle', result: `done ${n}`, success: true, call_id: `c${n}` } },
      ]);
      if (n === 3) await userData.put('alice', 'user_profile', { age: 40 }); // the system block changes
      if (n % 2 === 0) await events.appendEvent(session.id, 'user_message', { message: `and ${n}` });
      await request();
    }
    expect(replay(logged)).toEqual(sent.map((prompt) => JSON.parse(prompt)));
    expect(logged.map((entry) => entry.estimated_tokens)).toEqual(sent.map((prompt) => estimateTokens(prompt)));
    expect(logged[0]!.prompt_from_message).toBeUndefined();
    // Later requests log a few messages, not the conversation again; the tools only once.
    expect(logged.slice(1).every((entry) => entry.prompt.length < sent.at(-1)!.length / 4)).toBe(true);
    expect(logged.slice(1).some((entry) => entry.prompt.includes('"tools"'))).toBe(false);
    expect(logged.filter((entry) => entry.prompt.includes('"system"'))).toHaveLength(2);
  });
});
