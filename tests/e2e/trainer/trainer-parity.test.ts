import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL_IDS } from '../../../actors/models/model-registry.ts';
import { startFakeModelServer, type FakeModelServer } from '../../support/models/fake-model-server.ts';
import { startRuntime } from '../../support/runtime-harness.ts';
import { parseSse, setUpUser, streamOrderProblems } from '../../support/trainer/trainer-http.ts';
import { offlinePolicyScript, workoutSelectionScript } from '../../support/trainer/trainer-wire-scripts.ts';

type Event = { event_type: string; sequence_number: number; data: any };

/**
 * The cross-feature parity matrix of spec 001 §12.8, one column per model, on the real SDK
 * clients against a fake model server (its own prompt cache per model, as the API caches per
 * model). Claude's choices are played by the offline policy over the wire.
 */
describe.each(MODEL_IDS)('parity matrix (§12.8) on %s', (model) => {
  const user = `parity-${model}`;
  let server: FakeModelServer;
  let rt: Awaited<ReturnType<typeof startRuntime>>;
  let sessionId: string | undefined;

  beforeAll(async () => {
    server = await startFakeModelServer({ anthropic: offlinePolicyScript, openai: workoutSelectionScript });
    rt = await startRuntime({ systems: { trainer: { consoleLog: false } } }, undefined, {
      anthropicApiKey: 'sk-ant-test',
      anthropicBaseUrl: server.url,
      openaiApiKey: 'sk-test',
      openaiBaseUrl: `${server.url}/v1`,
    });
    await setUpUser(rt.call, user);
  });
  afterAll(async () => {
    await rt.stop();
    await server.close();
  });

  const chat = async (message: string) => {
    const res = await rt.call(user, 'POST', '/agent/chat', { message, model, ...(sessionId ? { sessionId } : {}) });
    expect(res.status).toBe(200);
    sessionId = res.body.sessionId;
    return res.body as { actions: { tool: string; result: any }[]; iterations: number; status: string };
  };
  const tools = (result: { actions: { tool: string; result: { success: boolean } }[] }) =>
    result.actions.map((a) => `${a.tool}${a.result.success ? '' : ':failed'}`);
  const timeline = async (): Promise<Event[]> =>
    (await rt.call(user, 'GET', `/agent/sessions/${sessionId}/events`)).body.events;

  it('simple message -> notify -> idle', async () => {
    expect(tools(await chat('Hi there!'))).toEqual(['message_notify_user', 'idle']);
  });

  it('workout generation -> artifact delivery', async () => {
    const result = await chat('Give me a quick chest workout');
    expect(tools(result)).toEqual(['generate_workout', 'message_notify_user', 'idle']);
    const [gen, notify] = result.actions;
    expect(notify!.result.artifact_id).toBe(gen!.result.artifact_id);
    expect(notify!.result.artifact.payload.exercises.length).toBeGreaterThan(0);
  });

  it('multi-turn with swap, adjust and remove', async () => {
    expect(tools(await chat('Swap the first exercise'))).toEqual(['swap_exercise', 'message_notify_user', 'idle']);
    expect(tools(await chat('Make exercise 1 harder'))).toEqual(['adjust_exercise', 'message_notify_user', 'idle']);
    const removed = await chat('Remove exercise 2');
    expect(tools(removed)).toEqual(['remove_exercise', 'message_notify_user', 'idle']);
    expect(removed.actions[0]!.result.remaining_count).toBeGreaterThan(0);
  });

  it('context initialization selects the §5.5 workout data, once (append-only)', async () => {
    const events = await timeline();
    const knowledge = events.filter((e) => e.event_type === 'knowledge').map((e) => e.data.source);
    expect([...knowledge].sort()).toEqual(['active_preferences', 'category_goals', 'muscle_goals', 'workout_history']);
    const openai = server.requests.filter((r) => r.endpoint === 'openai');
    expect(openai).toHaveLength(5);
    expect(JSON.stringify(openai[1]!.body)).toContain('Give me a quick chest workout');
  });

  it('reads more than 50 % of the input from the cache from the second iteration on', async () => {
    const events = await timeline();
    const turns: Event[][] = [];
    for (const event of events) {
      if (event.event_type === 'user_message') turns.push([]);
      if (event.event_type === 'llm_response') turns.at(-1)!.push(event);
    }
    expect(turns).toHaveLength(5);
    const shares = turns.map((responses) =>
      responses.map((r) => r.data.tokens.cached / (r.data.tokens.prompt + r.data.tokens.cached)),
    );
    // The very first call of a cold cache reads nothing; it writes the prefix.
    expect(shares[0]![0]).toBe(0);
    for (const turn of shares) {
      expect(turn.length).toBeGreaterThanOrEqual(2);
      for (const share of turn.slice(1)) expect(share).toBeGreaterThan(0.5);
    }
    const session = (await rt.call(user, 'GET', `/agent/sessions/${sessionId}`)).body.session;
    expect(session.total_cost_cents).toBeGreaterThan(0);
    expect(session.metadata.cache_hit_rate).toBeGreaterThan(50);
  });

  it('streams events in the §8.3 order', async () => {
    const res = await rt.call(user, 'POST', '/agent/stream', { message: 'Give me a leg workout', model, sessionId });
    const events = parseSse(res.body);
    expect(streamOrderProblems(events)).toEqual([]);
    expect(events.at(-1)).toEqual({ type: 'done', sessionId });
  });

  it('sent only requests that follow every rule, all on this model', () => {
    expect(server.violations).toEqual([]);
    const anthropic = server.requests.filter((r) => r.endpoint === 'anthropic');
    expect(anthropic.every((r) => (r.body as { model: string }).model === model)).toBe(true);
  });
});
