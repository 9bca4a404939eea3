import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnthropicReply } from '../../support/models/fake-model-server.ts';
import { setUpUser } from '../../support/trainer/trainer-http.ts';
import { smokeScript, workoutSelectionScript } from '../../support/trainer/trainer-wire-scripts.ts';
import { startWireRuntime } from '../../support/trainer/trainer-wire-runtime.ts';

type Wire = Awaited<ReturnType<typeof startWireRuntime>>;
type Event = { event_type: string; data: any };

const timeline = async (rt: Wire, user: string, sessionId: string): Promise<Event[]> =>
  (await rt.call(user, 'GET', `/agent/sessions/${sessionId}/events`)).body.events;

/** Definition-of-done boxes of spec 001 §12 that need the real SDKs on the wire. */
describe('§12.1 LLM errors propagate to the caller after logging', () => {
  let rt: Wire;
  beforeAll(async () => {
    const replies: AnthropicReply[] = [
      { toolUse: { name: 'fetch_data', input: { sources: ['user_profile'] } } },
      { error: { status: 400, message: 'prompt is too long: 250000 tokens > 200000 maximum' } },
    ];
    rt = await startWireRuntime({ anthropic: replies, openai: () => workoutSelectionScript() });
  });
  afterAll(() => rt.stop());

  it('answers the chat with a gateway error naming the model failure, the session ended in error', async () => {
    const res = await rt.call('u', 'POST', '/agent/chat', { message: 'Give me a quick chest workout' });
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('model_invalid_request');
    expect(res.body.error.message).toContain('prompt is too long');
    const sessionId = res.response.headers.get('x-session-id')!;
    expect(res.body.error.message).toContain(sessionId);
    const session = (await rt.call('u', 'GET', `/agent/sessions/${sessionId}`)).body.session;
    expect(session.status).toBe('error');
    const events = await timeline(rt, 'u', sessionId);
    // Logged first: the failed request, then the error; the first iteration's response counted.
    expect(events.filter((e) => e.event_type === 'llm_request')).toHaveLength(2);
    expect(events.filter((e) => e.event_type === 'llm_response')).toHaveLength(1);
    expect(events.filter((e) => e.event_type === 'error').map((e) => e.data.context)).toEqual(['llm_call']);
    expect(session.total_tokens).toBeGreaterThan(0);
  });
});

describe('§12.1 invalid tool arguments from the model', () => {
  let rt: Wire;
  beforeAll(async () => {
    let first = true;
    rt = await startWireRuntime({
      anthropic: (body) => {
        if (!first) return smokeScript(body);
        first = false;
        return { toolUse: { name: 'generate_workout', input: { workout: { title: 'Empty', exercises: [] } } } };
      },
      openai: () => workoutSelectionScript(),
    });
  });
  afterAll(() => rt.stop());

  it('become a failed tool result naming the field, which the model sees and the loop continues from', async () => {
    const res = await rt.call('u', 'POST', '/agent/chat', { message: 'Give me a quick chest workout' });
    expect(res.status).toBe(200);
    expect(res.body.actions.map((a: { tool: string }) => a.tool)).toEqual([
      'generate_workout',
      'generate_workout',
      'message_notify_user',
      'idle',
    ]);
    const failed = res.body.actions[0].result;
    expect(failed).toMatchObject({ success: false, error_code: 'invalid_arguments' });
    expect(failed.issues.map((i: { path: string }) => i.path)).toContain('workout.exercises');
    // The second request carries the failure back to the model as the call's tool_result.
    const second = rt.server.requests.filter((r) => r.endpoint === 'anthropic')[1]!.body as {
      messages: { content: unknown }[];
    };
    expect(JSON.stringify(second.messages.at(-1))).toContain('invalid_arguments');
    expect(rt.server.violations).toEqual([]);
  });
});

describe('§12.3 the initializer on GPT-4o-mini', () => {
  let rt: Wire;
  let fail = false;
  beforeAll(async () => {
    rt = await startWireRuntime({
      anthropic: smokeScript,
      openai: () =>
        fail ? { error: { status: 400, message: 'Invalid schema for response_format' } } : workoutSelectionScript(),
    });
    await setUpUser(rt.call, 'u');
  });
  afterAll(() => rt.stop());

  it('receives the user message and the knowledge already loaded, and appends only new sources', async () => {
    const first = await rt.call('u', 'POST', '/agent/chat', { message: 'Give me a quick chest workout' });
    const second = await rt.call('u', 'POST', '/agent/chat', {
      message: 'And a leg workout',
      sessionId: first.body.sessionId,
    });
    expect(second.status).toBe(200);
    const [, request] = rt.server.requests.filter((r) => r.endpoint === 'openai');
    const prompt = JSON.stringify(request!.body);
    expect(prompt).toContain('And a leg workout');
    for (const source of ['category_goals', 'muscle_goals', 'active_preferences', 'workout_history'])
      expect(prompt).toContain(`- ${source}`);
    const knowledge = (await timeline(rt, 'u', first.body.sessionId)).filter((e) => e.event_type === 'knowledge');
    expect(knowledge).toHaveLength(4);
  });

  it('does not keep the agent from running when it fails; the failure is logged as context_init', async () => {
    fail = true;
    const res = await rt.call('u', 'POST', '/agent/chat', { message: 'Give me a quick chest workout' });
    expect(res.status).toBe(200);
    expect(res.body.actions.map((a: { tool: string }) => a.tool)).toEqual([
      'generate_workout',
      'message_notify_user',
      'idle',
    ]);
    const events = await timeline(rt, 'u', res.body.sessionId);
    expect(events.filter((e) => e.event_type === 'knowledge')).toHaveLength(0);
    expect(events.find((e) => e.event_type === 'error')?.data.context).toBe('context_init');
  });
});

describe('§12.2 the user data XML is fetched afresh on every build', () => {
  let rt: Wire;
  beforeAll(async () => {
    rt = await startWireRuntime({ anthropic: smokeScript, openai: () => workoutSelectionScript() });
    await setUpUser(rt.call, 'u');
  });
  afterAll(() => rt.stop());

  it('shows a profile change in the next request, and keeps it in its own cached system block', async () => {
    const first = await rt.call('u', 'POST', '/agent/chat', { message: 'Give me a quick chest workout' });
    await rt.call('u', 'PUT', '/users/me/profile', { sex: 'male', age: 28, height_cm: 180, weight_kg: 90 });
    await rt.call('u', 'POST', '/agent/chat', { message: 'Another one please', sessionId: first.body.sessionId });
    const requests = rt.server.requests
      .filter((r) => r.endpoint === 'anthropic')
      .map((r) => r.body as { system: { text: string; cache_control?: unknown }[] });
    expect(requests[0]!.system[1]!.text).toContain('Weight: 82kg');
    expect(requests.at(-1)!.system[1]!.text).toContain('Weight: 90kg');
    expect(requests.at(-1)!.system[1]!.text).toMatch(/^<user_data>/);
    expect(requests.at(-1)!.system[1]!.cache_control).toEqual({ type: 'ephemeral' });
    // The system prompt itself never changed: it stays cacheable across sessions.
    expect(new Set(requests.map((r) => r.system[0]!.text)).size).toBe(1);
  });
});
