import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import {
  EmptySessionContextError,
  createContextBuilder,
} from '../../../../../actors/trainer/context/context-builder.ts';
import { createDataSources } from '../../../../../actors/trainer/user-data/data-sources.ts';
import { createEventStore } from '../../../../../actors/trainer/events/event-store.ts';
import { createUserDataStore } from '../../../../../actors/trainer/user-data/user-data-store.ts';
import { NotFoundError, RuntimeError } from '../../../../../protocol/runtime/runtime-error.ts';
import type { StoredSessionEvent } from '../../../../../protocol/trainer/session-event.ts';
import { createFakeJournal, createFakeStore } from '../../../../support/trainer/trainer-fakes.ts';
import { llmResponseData } from '../../../../support/trainer/trainer-events.ts';

const tools: Tool[] = ['message_notify_user', 'idle'].map((name) => ({
  name,
  description: name,
  input_schema: { type: 'object', properties: {} },
}));

function setup() {
  const store = createFakeStore();
  const events = createEventStore({ store, journal: createFakeJournal<StoredSessionEvent>() });
  const userData = createUserDataStore(store);
  const builder = createContextBuilder({
    events,
    dataSources: createDataSources({ userData }),
    systemPrompt: 'You are a personal trainer.',
    tools,
  });
  return { events, userData, builder };
}

/** Counts `cache_control` markers anywhere in a value. */
function countBreakpoints(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, item) => n + countBreakpoints(item), 0);
  if (value === null || typeof value !== 'object') return 0;
  return Object.entries(value).reduce(
    (n, [key, item]) => n + (key === 'cache_control' && item !== undefined ? 1 : countBreakpoints(item)),
    0,
  );
}

describe('createContextBuilder', () => {
  it('builds the §4.5 context from the context events only', async () => {
    const { events, builder } = setup();
    const session = await events.createSession('alice');
    await events.appendEvent(session.id, 'user_message', { message: 'Plan my week' });
    await events.appendEvent(session.id, 'llm_request', {
      model: 'claude-haiku-4-5',
      prompt: 'p',
      estimated_tokens: 1,
    });
    await events.appendEvent(session.id, 'llm_response', llmResponseData(1, 1, 0, 0));
    await events.appendEvent(session.id, 'error', { message: 'transient' });
    await events.appendEvent(session.id, 'tool_call', {
      tool_name: 'idle',
      arguments: { reason: 'ok' },
      call_id: 'c1',
    });
    await events.appendEvent(session.id, 'tool_result', {
      tool_name: 'idle',
      result: 'done',
      success: true,
      call_id: 'c1',
    });
    const context = await builder.build(session.id, 'alice');
    expect(context.session).toEqual(session);
    expect(context.eventCount).toBe(3);
    expect(context.systemPrompt).toBe('You are a personal trainer.');
    expect(context.userDataXml).toMatch(/^<user_data>\n<unit_preferences>/);
    expect(context.messages).toEqual([
      { role: 'user', content: 'Plan my week' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'idle', input: { reason: 'ok' } }] },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'c1', content: 'done', cache_control: { type: 'ephemeral' } }],
      },
    ]);
    expect(context.system).toEqual([
      { type: 'text', text: context.systemPrompt, cache_control: { type: 'ephemeral' } },
      { type: 'text', text: context.userDataXml, cache_control: { type: 'ephemeral' } },
    ]);
    expect(context.tools.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
  });

  it('places exactly the four breakpoints of §4.2', async () => {
    const { events, builder } = setup();
    const session = await events.createSession('alice');
    await events.appendEvent(session.id, 'user_message', { message: 'hi' });
    await events.appendEvent(session.id, 'knowledge', { source: 'user_profile', data: 'Age: 30' });
    const context = await builder.build(session.id, 'alice');
    expect(countBreakpoints(context.tools)).toBe(1);
    expect(countBreakpoints(context.system)).toBe(2);
    expect(countBreakpoints(context.messages)).toBe(1);
    expect(countBreakpoints(tools)).toBe(0);
  });

  it('fetches the user data afresh on every build', async () => {
    const { events, userData, builder } = setup();
    const session = await events.createSession('alice');
    await events.appendEvent(session.id, 'user_message', { message: 'hi' });
    expect((await builder.build(session.id, 'alice')).userDataXml).not.toContain('<body_stats>');
    await userData.put('alice', 'user_profile', { age: 33 });
    await userData.put('alice', 'user_settings', { weight_unit: 'lb' });
    const xml = (await builder.build(session.id, 'alice')).userDataXml;
    expect(xml).toContain('<body_stats>\nAge: 33\n</body_stats>');
    expect(xml).toContain('Weight: lb');
  });

  it('refuses a session without context events with a clear error', async () => {
    const { events, builder } = setup();
    const session = await events.createSession('alice');
    await events.appendEvent(session.id, 'error', { message: 'not context' });
    const build = builder.build(session.id, 'alice');
    await expect(build).rejects.toBeInstanceOf(EmptySessionContextError);
    await expect(build).rejects.toBeInstanceOf(RuntimeError);
    await expect(build).rejects.toMatchObject({ code: 'empty_session_context' });
    await expect(build).rejects.toThrow(/^Cannot build context: no events in session/);
  });

  it("refuses another user's session as not found", async () => {
    const { events, builder } = setup();
    const session = await events.createSession('alice');
    await events.appendEvent(session.id, 'user_message', { message: 'hi' });
    await expect(builder.build(session.id, 'mallory')).rejects.toBeInstanceOf(NotFoundError);
  });
});
