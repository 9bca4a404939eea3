import { afterEach, describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { offlineNutritionBrains } from '../../../actors/nutrition/offline-brains.ts';
import type { AgentBrainInput } from '../../../protocol/runtime/agent-report.ts';
import { payload } from '../../support/nutrition/nutrition-fakes.ts';
import { startRuntime } from '../../support/runtime-harness.ts';

type Runtime = Awaited<ReturnType<typeof startRuntime>>;
const runtimes: Runtime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((rt) => rt.stop()));
});

async function runtime() {
  const rt = await startRuntime();
  runtimes.push(rt);
  return rt;
}

const intake = (changes: Record<string, unknown> = {}) => ({ ...payload('intake_data'), ...changes });

async function startRun(rt: Runtime, user: string, body: unknown = intake()) {
  const created = await rt.call(user, 'POST', '/pipelines', body);
  expect(created.status).toBe(201);
  return created.body.pipeline_run_id as string;
}

async function settled(rt: Runtime, user: string, id: string) {
  await expect
    .poll(async () => (await rt.call(user, 'GET', `/pipelines/${id}`)).body.state, { timeout: 20_000 })
    .toMatch(/^(output_ready|paused_physician|error)$/);
  return (await rt.call(user, 'GET', `/pipelines/${id}`)).body;
}

describe('pipelines over HTTP', () => {
  it('runs an intake to output_ready with every output, and lists the journal', async () => {
    const rt = await runtime();
    const id = await startRun(rt, 'ada');
    const view = await settled(rt, 'ada', id);
    expect(view).toMatchObject({
      pipeline_run_id: id,
      state: 'output_ready',
      status: 'completed',
      previous_state: null,
      error: null,
      physician: null,
    });
    expect(Object.keys(view.outputs).sort()).toEqual([
      'macro_targets',
      'nutrition_strategy',
      'recipes',
      'training_input',
      'training_program',
      'weekly_meal_plan',
    ]);
    const { messages } = (await rt.call('ada', 'GET', `/pipelines/${id}/messages`)).body;
    expect(messages.map((m: any) => `${m.from_agent}->${m.to_agent}:${m.data_type}`)).toEqual(
      expect.arrayContaining([
        'USER->INTAKE:intake_data',
        'INTAKE->SCIENTIST:intake_data',
        'SCIENTIST->NUTRITIONIST:macro_targets',
        'SCIENTIST->COACH:training_input',
        'NUTRITIONIST->DIETITIAN:nutrition_strategy',
        'DIETITIAN->CHEF:weekly_meal_plan',
        'CHEF->USER:recipes',
        'COACH->USER:training_program',
      ]),
    );
    expect(new Set(messages.map((m: any) => m.message_id)).size).toBe(messages.length);
    expect(messages.every((m: any) => m.pipeline_run_id === id && m.version === '1.0')).toBe(true);
  });

  it('answers 201 once the intake is in the journal, while the run goes on in the background', async () => {
    // SCIENTIST never answers: the run stays in scientist_processing.
    const silent = fromPromise<unknown, AgentBrainInput>(
      ({ signal }) =>
        new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('cancelled')))),
    );
    const rt = await startRuntime({
      systems: { nutrition: { brains: { ...offlineNutritionBrains(), SCIENTIST: silent } } },
    });
    runtimes.push(rt);
    const created = await rt.call('ada', 'POST', '/pipelines', intake());
    expect(created.status).toBe(201);
    expect(created.body.state).toBe('scientist_processing');
    const { messages } = (await rt.call('ada', 'GET', `/pipelines/${created.body.pipeline_run_id}/messages`)).body;
    expect(messages.map((m: any) => `${m.from_agent}->${m.to_agent}:${m.data_type}`)).toContain(
      'USER->INTAKE:intake_data',
    );
    expect((await rt.call('ada', 'GET', '/pipelines')).body.pipelines.map((p: any) => p.pipeline_run_id)).toEqual([
      created.body.pipeline_run_id,
    ]);
  });

  it("lists only the user's own runs, newest first, and hides others' runs as 404", async () => {
    const rt = await runtime();
    const first = await startRun(rt, 'ada');
    await settled(rt, 'ada', first);
    const second = await startRun(rt, 'ada');
    const other = await startRun(rt, 'bob');
    const list = (await rt.call('ada', 'GET', '/pipelines')).body.pipelines;
    expect(list.map((r: any) => r.pipeline_run_id)).toEqual([second, first]);
    for (const path of [`/pipelines/${other}`, `/pipelines/${other}/messages`, `/pipelines/${other}/events`]) {
      const response = await rt.call('ada', 'GET', path);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
    expect((await rt.call('ada', 'POST', `/pipelines/${other}/checkins`, payload('weekly_checkin'))).status).toBe(404);
  });

  it('rejects a bad intake with 400 naming the field, and a replaced field name with the canonical one', async () => {
    const rt = await runtime();
    const missing = await rt.call('ada', 'POST', '/pipelines', { ...intake(), age: undefined });
    expect(missing.status).toBe(400);
    expect(missing.body.error.issues.map((i: any) => i.path)).toContain('age');
    const replaced = await rt.call('ada', 'POST', '/pipelines', { ...intake(), weight: 52 });
    expect(replaced.status).toBe(400);
    expect(replaced.body.error.issues.map((i: any) => i.message).join(' ')).toContain('current_weight_kg');
    expect((await rt.call('ada', 'GET', '/pipelines')).body.pipelines).toEqual([]);
  });

  it('streams state and message events and closes once settled', async () => {
    const rt = await runtime();
    const id = await startRun(rt, 'ada');
    const response = await rt.runtime.app.request(`/pipelines/${id}/events?until=settled`, {
      headers: { authorization: `Bearer ${await rt.token('ada')}` },
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const text = await response.text();
    const events = text
      .split('\n\n')
      .filter(Boolean)
      .map((block) => ({ event: /event: (.*)/.exec(block)?.[1], data: JSON.parse(/data: (.*)/.exec(block)![1]!) }));
    const states = events.filter((e) => e.event === 'state').map((e) => e.data.state);
    expect(states.at(-1)).toBe('output_ready');
    expect(events.filter((e) => e.event === 'message').map((e) => e.data.data_type)).toContain('recipes');
  });

  it('pauses on amenorrhea until the user confirms the referral (pause_pending_referral)', async () => {
    const rt = await runtime();
    const id = await startRun(rt, 'ada', intake({ menstrual_status: 'amenorrhea' }));
    const paused = await settled(rt, 'ada', id);
    expect(paused).toMatchObject({
      state: 'paused_physician',
      status: 'paused',
      previous_state: 'scientist_processing',
    });
    expect(paused.physician.response).toMatchObject({
      pipeline_action: 'pause_pending_referral',
      urgency: 'soon',
      referral_needed: true,
    });
    expect(paused.physician.response.referral_target).toBeTruthy();
    expect(paused.physician.response.disclaimer.length).toBeGreaterThan(10);
    expect(paused.outputs.macro_targets).toBeUndefined();
    const confirmed = await rt.call('ada', 'POST', `/pipelines/${id}/physician/confirm`);
    expect(confirmed.status).toBe(200);
    const done = await settled(rt, 'ada', id);
    expect(done.state).toBe('output_ready');
    // The PHYSICIAN's answer is metadata: it stays on the run and changes no payload.
    expect(done.physician.response.pipeline_action).toBe('pause_pending_referral');
    expect((await rt.call('ada', 'POST', `/pipelines/${id}/physician/confirm`)).status).toBe(409);
  });

  it('continues past an irregular cycle with an advisory (continue)', async () => {
    const rt = await runtime();
    const id = await startRun(rt, 'ada', intake({ menstrual_status: 'irregular' }));
    const done = await settled(rt, 'ada', id);
    expect(done.state).toBe('output_ready');
    expect(done.physician.response.pipeline_action).toBe('continue');
    const { messages } = (await rt.call('ada', 'GET', `/pipelines/${id}/messages`)).body;
    expect(messages.filter((m: any) => m.data_type === 'health_query')).toHaveLength(1);
    expect(messages.some((m: any) => m.data_type === 'medical_context' && m.to_agent === 'SCIENTIST')).toBe(true);
  });

  it.each([
    ['a BMI under 16', { current_weight_kg: 40, height_cm: 165 }],
    [
      'an eating disorder',
      { medical_history: { medications: [], conditions: ['anorexia nervosa (2019)'], injuries: [] } },
    ],
  ])('aborts on %s, terminates the run, and blocks new runs until clearance (abort)', async (_, changes) => {
    const rt = await runtime();
    const id = await startRun(rt, 'ada', intake(changes));
    const ended = await settled(rt, 'ada', id);
    expect(ended).toMatchObject({ state: 'error', status: 'terminated_medical' });
    expect(ended.physician.response).toMatchObject({ pipeline_action: 'abort', urgency: 'urgent' });
    expect(ended.error).toMatchObject({ error_type: 'physician_abort', failing_agent: 'PHYSICIAN' });
    const blocked = await rt.call('ada', 'POST', '/pipelines', intake());
    expect(blocked.status).toBe(409);
    expect(blocked.body.error.code).toBe('medical_clearance_required');
    // Another user is not blocked.
    expect((await rt.call('bob', 'POST', '/pipelines', intake())).status).toBe(201);
    expect((await rt.call('ada', 'POST', '/clearance', { confirmed: false })).status).toBe(400);
    expect((await rt.call('ada', 'POST', '/clearance', { confirmed: true })).status).toBe(200);
    expect((await rt.call('ada', 'POST', '/pipelines', intake())).status).toBe(201);
  });

  it('answers a check-in with the adjustment result, and refuses one while not ready', async () => {
    const rt = await runtime();
    const id = await startRun(rt, 'ada');
    const early = await rt.call('ada', 'POST', `/pipelines/${id}/checkins`, payload('weekly_checkin'));
    expect([409, 200]).toContain(early.status);
    if (early.status === 409) expect(early.body.error.code).toBe('not_ready');
    await settled(rt, 'ada', id);
    const before = (await rt.call('ada', 'GET', `/pipelines/${id}`)).body;
    const bad = await rt.call('ada', 'POST', `/pipelines/${id}/checkins`, {
      ...payload('weekly_checkin'),
      weight_kg: 'heavy',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues.map((i: any) => i.path)).toContain('weight_kg');
    expect((await rt.call('ada', 'GET', `/pipelines/${id}`)).body).toEqual(before);
    const answer = await rt.call('ada', 'POST', `/pipelines/${id}/checkins`, {
      ...payload('weekly_checkin'),
      weight_kg: 52.7,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ from_agent: 'SCIENTIST', to_agent: 'USER', data_type: 'adjustment_result' });
  });
});
