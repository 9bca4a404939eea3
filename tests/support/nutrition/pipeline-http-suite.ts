import { describe, expect, it } from 'vitest';
import { freshUser as fresh } from '../http-host/fresh-user.ts';
import type { HttpHost } from '../http-host/http-host.ts';
import { payload } from './nutrition-fakes.ts';
import { PIPELINE_OUTPUTS } from './pipeline-outputs.ts';

/*
 * The pipeline routes over HTTP, written once and run against each host: the embedded runtime
 * (tests/e2e/nutrition/pipelines.test.ts) and `npm run start:cluster`
 * (tests/cluster/pipeline-http.test.ts). Nothing here swaps a brain or drives a clock, so it runs
 * on a real process group as well. Each test has users of its own: a host may serve many tests.
 */

const intake = (changes: Record<string, unknown> = {}) => ({ ...payload('intake_data'), ...changes });

/**
 * Declares the pipeline HTTP tests against the host `host()` answers when a test runs (the
 * test file starts and stops it).
 *
 * @example
 * let host: HttpHost;
 * beforeAll(async () => (host = await startEmbeddedHost()));
 * afterAll(() => host.stop());
 * describePipelineHttp(() => host);
 */
export function describePipelineHttp(host: () => HttpHost) {
  async function startRun(user: string, body: unknown = intake()) {
    const created = await host().call(user, 'POST', '/pipelines', body);
    expect(created.status).toBe(201);
    return created.body.pipeline_run_id as string;
  }

  /**
   * Waits until the run waits for nobody but its user: output_ready, error, or paused for a
   * referral to confirm. A run also shows paused_physician while the PHYSICIAN still works: that
   * is not settled (with a PHYSICIAN on a service process, a poll sees it).
   */
  async function settled(user: string, id: string) {
    const waitsForUser = (view: any) =>
      view.state === 'output_ready' ||
      view.state === 'error' ||
      (view.state === 'paused_physician' && view.physician?.awaiting_confirmation === true);
    await expect
      .poll(async () => waitsForUser((await host().call(user, 'GET', `/pipelines/${id}`)).body), { timeout: 20_000 })
      .toBe(true);
    return (await host().call(user, 'GET', `/pipelines/${id}`)).body;
  }

  describe('pipelines over HTTP', () => {
    it('runs an intake to output_ready with every output, and lists the journal', async () => {
      const ada = fresh('ada');
      const id = await startRun(ada);
      const view = await settled(ada, id);
      expect(view).toMatchObject({
        pipeline_run_id: id,
        state: 'output_ready',
        status: 'completed',
        previous_state: null,
        error: null,
        physician: null,
      });
      expect(Object.keys(view.outputs).sort()).toEqual(PIPELINE_OUTPUTS);
      const { messages } = (await host().call(ada, 'GET', `/pipelines/${id}/messages`)).body;
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

    it("lists only the user's own runs, newest first, and hides others' runs as 404", async () => {
      const [ada, bob] = [fresh('ada'), fresh('bob')];
      const first = await startRun(ada);
      await settled(ada, first);
      const second = await startRun(ada);
      const other = await startRun(bob);
      const list = (await host().call(ada, 'GET', '/pipelines')).body.pipelines;
      expect(list.map((r: any) => r.pipeline_run_id)).toEqual([second, first]);
      for (const path of [`/pipelines/${other}`, `/pipelines/${other}/messages`, `/pipelines/${other}/events`]) {
        const response = await host().call(ada, 'GET', path);
        expect(response.status).toBe(404);
        expect(response.body.error.code).toBe('not_found');
      }
      expect((await host().call(ada, 'POST', `/pipelines/${other}/checkins`, payload('weekly_checkin'))).status).toBe(
        404,
      );
    });

    it('rejects a bad intake with 400 naming the field, and a replaced field name with the canonical one', async () => {
      const ada = fresh('ada');
      const missing = await host().call(ada, 'POST', '/pipelines', { ...intake(), age: undefined });
      expect(missing.status).toBe(400);
      expect(missing.body.error.issues.map((i: any) => i.path)).toContain('age');
      const replaced = await host().call(ada, 'POST', '/pipelines', { ...intake(), weight: 52 });
      expect(replaced.status).toBe(400);
      expect(replaced.body.error.issues.map((i: any) => i.message).join(' ')).toContain('current_weight_kg');
      expect((await host().call(ada, 'GET', '/pipelines')).body.pipelines).toEqual([]);
    });

    it('streams state and message events and closes once settled', async () => {
      const ada = fresh('ada');
      const id = await startRun(ada);
      const response = await host().fetch(ada, `/pipelines/${id}/events?until=settled`);
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

    it("streams a run paused for the PHYSICIAN until it waits for its user: the PHYSICIAN's answer is in it", async () => {
      const ada = fresh('ada');
      const id = await startRun(ada, intake({ menstrual_status: 'amenorrhea' }));
      const text = await (await host().fetch(ada, `/pipelines/${id}/events?until=settled`)).text();
      const messages = text
        .split('\n\n')
        .filter((block) => block.includes('event: message'))
        .map((block) => JSON.parse(/data: (.*)/.exec(block)![1]!));
      expect(messages.map((m) => `${m.from_agent}:${m.data_type}`)).toContain('PHYSICIAN:medical_context');
      expect((await host().call(ada, 'GET', `/pipelines/${id}`)).body.physician.awaiting_confirmation).toBe(true);
    });

    it('pauses on amenorrhea until the user confirms the referral (pause_pending_referral)', async () => {
      const ada = fresh('ada');
      const id = await startRun(ada, intake({ menstrual_status: 'amenorrhea' }));
      const paused = await settled(ada, id);
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
      const confirmed = await host().call(ada, 'POST', `/pipelines/${id}/physician/confirm`);
      expect(confirmed.status).toBe(200);
      const done = await settled(ada, id);
      expect(done.state).toBe('output_ready');
      // The PHYSICIAN's answer is metadata: it stays on the run and changes no payload.
      expect(done.physician.response.pipeline_action).toBe('pause_pending_referral');
      expect((await host().call(ada, 'POST', `/pipelines/${id}/physician/confirm`)).status).toBe(409);
    });

    it('continues past an irregular cycle with an advisory (continue)', async () => {
      const ada = fresh('ada');
      const id = await startRun(ada, intake({ menstrual_status: 'irregular' }));
      const done = await settled(ada, id);
      expect(done.state).toBe('output_ready');
      expect(done.physician.response.pipeline_action).toBe('continue');
      const { messages } = (await host().call(ada, 'GET', `/pipelines/${id}/messages`)).body;
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
      const [ada, bob] = [fresh('ada'), fresh('bob')];
      const id = await startRun(ada, intake(changes));
      const ended = await settled(ada, id);
      expect(ended).toMatchObject({ state: 'error', status: 'terminated_medical' });
      expect(ended.physician.response).toMatchObject({ pipeline_action: 'abort', urgency: 'urgent' });
      expect(ended.error).toMatchObject({ error_type: 'physician_abort', failing_agent: 'PHYSICIAN' });
      const blocked = await host().call(ada, 'POST', '/pipelines', intake());
      expect(blocked.status).toBe(409);
      expect(blocked.body.error.code).toBe('medical_clearance_required');
      // Another user is not blocked.
      expect((await host().call(bob, 'POST', '/pipelines', intake())).status).toBe(201);
      expect((await host().call(ada, 'POST', '/clearance', { confirmed: false })).status).toBe(400);
      expect((await host().call(ada, 'POST', '/clearance', { confirmed: true })).status).toBe(200);
      expect((await host().call(ada, 'POST', '/pipelines', intake())).status).toBe(201);
    });

    it('answers a check-in with the adjustment result, and refuses one while not ready', async () => {
      const ada = fresh('ada');
      const id = await startRun(ada);
      const early = await host().call(ada, 'POST', `/pipelines/${id}/checkins`, payload('weekly_checkin'));
      expect([409, 200]).toContain(early.status);
      if (early.status === 409) expect(early.body.error.code).toBe('not_ready');
      await settled(ada, id);
      const before = (await host().call(ada, 'GET', `/pipelines/${id}`)).body;
      const bad = await host().call(ada, 'POST', `/pipelines/${id}/checkins`, {
        ...payload('weekly_checkin'),
        weight_kg: 'heavy',
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error.issues.map((i: any) => i.path)).toContain('weight_kg');
      expect((await host().call(ada, 'GET', `/pipelines/${id}`)).body).toEqual(before);
      const answer = await host().call(ada, 'POST', `/pipelines/${id}/checkins`, {
        ...payload('weekly_checkin'),
        weight_kg: 52.7,
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ from_agent: 'SCIENTIST', to_agent: 'USER', data_type: 'adjustment_result' });
    });
  });
}
