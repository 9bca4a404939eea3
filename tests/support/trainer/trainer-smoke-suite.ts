import { afterAll, beforeAll, expect, it } from 'vitest';
import { ExerciseTypeSchema } from '../../../protocol/trainer/tools/exercise.ts';
import type { startRuntime } from '../runtime-harness.ts';
import { isToolResult, isToolStart, parseSse, setUpUser } from './trainer-http.ts';

type Harness = Awaited<ReturnType<typeof startRuntime>>;

export interface SmokeSuiteOptions {
  start(): Promise<Harness>;
  /** Whether the model bills its calls (Claude) or not (offline): §12.9 step 6 cost. */
  billed: boolean;
  model: string;
  /** Checks after each step, e.g. that the fake server saw no broken rule. */
  afterStep?: () => void;
}

/**
 * The §12.9 integration smoke test over HTTP, step by step, as `it` blocks of the calling
 * `describe`; each step asserts exactly what the spec asserts (and a little more).
 */
export function defineSmokeSuite(options: SmokeSuiteOptions): void {
  const user = 'test-user-uuid';
  let rt: Harness;
  let sessionId: string;
  let chat: any;
  const action = (tool: string) => chat.actions.find((a: { tool: string }) => a.tool === tool);

  beforeAll(async () => {
    rt = await options.start();
    await setUpUser(rt.call, user);
  });
  afterAll(() => rt.stop());

  it('1. creates an active session', async () => {
    const created = await rt.call(user, 'POST', '/agent/sessions');
    expect(created.status).toBe(201);
    expect(created.body.session).toMatchObject({ user_id: user, status: 'active', context_start_sequence: 0 });
    sessionId = created.body.session.id;
  });

  it('2. runs the loop on a workout request within the iteration limit', async () => {
    const res = await rt.call(user, 'POST', '/agent/chat', {
      message: 'Give me a quick chest workout',
      sessionId,
      model: options.model,
    });
    expect(res.status).toBe(200);
    chat = res.body;
    expect(chat.sessionId).toBe(sessionId);
    expect(chat.iterations).toBeGreaterThanOrEqual(2);
    expect(chat.iterations).toBeLessThanOrEqual(10);
    expect(chat.actions).toHaveLength(chat.iterations);
    options.afterStep?.();
  });

  it('3. generated a workout, then notified the user', () => {
    const toolNames: string[] = chat.actions.map((a: { tool: string }) => a.tool);
    expect(toolNames).toContain('generate_workout');
    expect(toolNames).toContain('message_notify_user');
    expect(toolNames.indexOf('message_notify_user')).toBeGreaterThan(toolNames.indexOf('generate_workout'));
  });

  it('4. delivered the artifact it created', () => {
    const gen = action('generate_workout');
    expect(gen.result.success).toBe(true);
    expect(gen.result.artifact_id).toMatch(/^art_/);
    const notify = action('message_notify_user');
    expect(notify.result.artifact_id).toBe(gen.result.artifact_id);
    expect(notify.result.artifact).toBeDefined();
    expect(chat.response.messages.length).toBeGreaterThan(0);
    expect(chat.response.exercises.length).toBeGreaterThan(0);
  });

  it('5. logged every kind of event on the timeline, densely numbered', async () => {
    const res = await rt.call(user, 'GET', `/agent/sessions/${sessionId}/events`);
    expect(res.status).toBe(200);
    const types = new Set(res.body.events.map((e: { event_type: string }) => e.event_type));
    for (const type of ['user_message', 'tool_call', 'tool_result', 'artifact', 'llm_request', 'llm_response'])
      expect(types).toContain(type);
    const seqs = res.body.events.map((e: { sequence_number: number }) => e.sequence_number);
    expect(seqs).toEqual(seqs.map((_: number, i: number) => i + 1));
  });

  it(`6. completed the session with its totals${options.billed ? ' and a cost' : ' (offline calls cost nothing)'}`, async () => {
    const res = await rt.call(user, 'GET', `/agent/sessions/${sessionId}`);
    expect(res.status).toBe(200);
    expect(res.body.session.status).toBe('completed');
    expect(res.body.session.total_tokens).toBeGreaterThan(0);
    if (options.billed) expect(res.body.session.total_cost_cents).toBeGreaterThan(0);
    else expect(res.body.session.total_cost_cents).toBe(0);
    expect(res.body.recentActions.length).toBeGreaterThan(0);
  });

  it('7. stored an exercise_list artifact with well-formed exercises', async () => {
    const res = await rt.call(
      user,
      'GET',
      `/agent/sessions/${sessionId}/artifacts/${action('generate_workout').result.artifact_id}`,
    );
    expect(res.status).toBe(200);
    const { artifact } = res.body;
    expect(artifact.type).toBe('exercise_list');
    expect(artifact.payload.exercises.length).toBeGreaterThan(0);
    const first = artifact.payload.exercises[0];
    expect(first.exercise_name).toBeTruthy();
    expect(ExerciseTypeSchema.options).toContain(first.exercise_type);
    expect(first.muscles_utilized.length).toBeGreaterThan(0);
    expect(first.goals_addressed.length).toBeGreaterThan(0);
  });

  it('8. streams a second turn on the same session: tool_start and tool_result events, then done', async () => {
    const res = await rt.call(user, 'POST', '/agent/stream', {
      message: 'Show me a leg workout',
      sessionId,
      model: options.model,
    });
    expect(res.status).toBe(200);
    expect(res.response.headers.get('content-type')).toContain('text/event-stream');
    expect(res.response.headers.get('cache-control')).toBe('no-cache');
    expect(res.response.headers.get('x-session-id')).toBe(sessionId);
    const events = parseSse(res.body);
    expect(events.some(isToolStart)).toBe(true);
    expect(events.some(isToolResult)).toBe(true);
    expect(events.at(-1)).toEqual({ type: 'done', sessionId });
    const session = await rt.call(user, 'GET', `/agent/sessions/${sessionId}`);
    expect(session.body.session.status).toBe('completed');
    expect(session.body.session.message_count).toBe(2);
    options.afterStep?.();
  });
}
