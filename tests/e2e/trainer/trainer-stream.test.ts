import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelProvider } from '../../../actors/models/model-provider.ts';
import { ModelError } from '../../../actors/models/model-error.ts';
import { createOfflineProvider } from '../../../actors/trainer/offline-model/offline-provider.ts';
import type { OpenTrainer } from '../../../server/trainer/module.ts';
import { startRuntime } from '../../support/runtime-harness.ts';
import {
  isToolResult,
  isToolStart,
  parseSse,
  setUpUser,
  streamOrderProblems,
} from '../../support/trainer/trainer-http.ts';

/** A model that fails on the Nth call of a turn, and is the offline model otherwise. */
function failingOn(calls: Set<number>): ModelProvider {
  const offline = createOfflineProvider();
  let n = 0;
  return {
    kind: 'offline',
    billed: false,
    async call(request, signal) {
      n += 1;
      if (calls.has(n)) throw new ModelError('server_error', 'Anthropic API error 529: Overloaded.', 'anthropic', 529);
      return offline.call(request, signal);
    },
  };
}

/** `POST /agent/stream` (spec 001 §8, §12.6). */
describe('trainer streaming', () => {
  let rt: Awaited<ReturnType<typeof startRuntime>>;
  const user = 'stream-user';
  beforeAll(async () => {
    rt = await startRuntime({ systems: { trainer: { consoleLog: false, model: failingOn(new Set([99])) } } });
    await setUpUser(rt.call, user);
  });
  afterAll(() => rt.stop());

  const stream = (body: unknown) => rt.call(user, 'POST', '/agent/stream', body);

  it('streams knowledge, then each tool as status/tool_start/tool_result/status, then done (§8.3)', async () => {
    const res = await stream({ message: 'Give me a quick chest workout' });
    const events = parseSse(res.body);
    expect(streamOrderProblems(events)).toEqual([]);
    expect(
      events.filter((e) => e.type === 'knowledge').map((e) => (e as { data: { source: string } }).data.source),
    ).toEqual(expect.arrayContaining(['category_goals', 'muscle_goals', 'active_preferences', 'workout_history']));
    const generate = events.find((e) => e.type === 'generate_workout' && isToolStart(e));
    expect(generate).toMatchObject({ data: { status: 'running', args: { workout: expect.any(Object) } } });
    expect(events).toContainEqual({
      type: 'status',
      data: { message: 'Creating your workout...', tool: 'generate_workout', phase: 'start' },
    });
    expect(events).toContainEqual({
      type: 'status',
      data: { message: 'Workout ready', tool: 'generate_workout', phase: 'done' },
    });
    const result = events.find((e) => e.type === 'generate_workout' && isToolResult(e)) as {
      data: { success: boolean };
      formatted: string;
      status: string;
    };
    expect(result.status).toBe('done');
    expect(result.formatted).toContain('<tool_result name="generate_workout">');
    expect(result.formatted).toContain('MUST now call message_notify_user');
    const notify = events.find((e) => e.type === 'message_notify_user' && isToolResult(e)) as {
      artifact?: { artifact_id: string };
      artifact_id?: string;
    };
    expect(notify.artifact?.artifact_id).toMatch(/^art_/);
    expect(notify.artifact_id).toBe(notify.artifact?.artifact_id);
    // message_notify_user has no status messages (§6.7).
    expect(events.some((e) => e.type === 'status' && (e.data as { tool: string }).tool === 'message_notify_user')).toBe(
      false,
    );
    expect(events.at(-1)).toEqual({ type: 'done', sessionId: res.response.headers.get('x-session-id') });
  });

  it('keeps running the loop when the client disconnects, skipping writes silently (§8.4)', async () => {
    const token = await rt.token(user);
    const response = await rt.runtime.app.request('/agent/stream', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Give me a leg workout' }),
    });
    const sessionId = response.headers.get('x-session-id')!;
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toMatch(/^data: /);
    await reader.cancel();
    await (rt.runtime.systems.trainer as OpenTrainer).service.idle();
    const session = await rt.call(user, 'GET', `/agent/sessions/${sessionId}`);
    expect(session.body.session.status).toBe('completed');
    const timeline = await rt.call(user, 'GET', `/agent/sessions/${sessionId}/events`);
    const tools = timeline.body.events
      .filter((e: { event_type: string }) => e.event_type === 'tool_call')
      .map((e: { data: { tool_name: string } }) => e.data.tool_name);
    expect(tools).toEqual(['generate_workout', 'message_notify_user', 'idle']);
  });

  it('answers 400 and 404 as plain JSON before the stream opens', async () => {
    const missing = await stream({});
    expect(missing.status).toBe(400);
    expect(missing.response.headers.get('content-type')).toContain('application/json');
    const foreign = await stream({ message: 'hi', sessionId: 'not-mine' });
    expect(foreign.status).toBe(404);
  });
});

describe('trainer streaming when the model fails', () => {
  let rt: Awaited<ReturnType<typeof startRuntime>>;
  beforeAll(async () => {
    // The second model call of the first turn fails.
    rt = await startRuntime({ systems: { trainer: { consoleLog: false, model: failingOn(new Set([2])) } } });
  });
  afterAll(() => rt.stop());

  it('sends an error event, no done, and ends the session in error (§12.6, §12.1)', async () => {
    const res = await rt.call('u', 'POST', '/agent/stream', { message: 'Give me a quick chest workout' });
    const events = parseSse(res.body);
    expect(streamOrderProblems(events)).toEqual([]);
    expect(events.at(-1)).toEqual({ type: 'error', message: 'Anthropic API error 529: Overloaded.' });
    expect(events.some((e) => e.type === 'done')).toBe(false);
    const sessionId = res.response.headers.get('x-session-id')!;
    const session = await rt.call('u', 'GET', `/agent/sessions/${sessionId}`);
    expect(session.body.session.status).toBe('error');
    const errors = (await rt.call('u', 'GET', `/agent/sessions/${sessionId}/events`)).body.events.filter(
      (e: { event_type: string }) => e.event_type === 'error',
    );
    expect(errors.map((e: { data: { context: string } }) => e.data.context)).toEqual(['llm_call']);
  });

  it('continues a session that ended in error when a new message comes (error -> active -> completed)', async () => {
    const sessions = await rt.call('u', 'GET', '/agent/sessions');
    const failed = sessions.body.sessions[0];
    expect(failed.status).toBe('error');
    const again = await rt.call('u', 'POST', '/agent/chat', {
      message: 'Try again please: a quick chest workout',
      sessionId: failed.id,
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ sessionId: failed.id, status: 'completed', stopReason: 'idle' });
    expect((await rt.call('u', 'GET', `/agent/sessions/${failed.id}`)).body.session.status).toBe('completed');
  });
});
