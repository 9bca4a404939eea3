import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRuntime } from '../../support/runtime-harness.ts';
import { setUpUser, USER_SETUP } from '../../support/trainer/trainer-http.ts';

/** The trainer's HTTP surface (spec 001 §10, §12.7, §7.7) and the user data routes (§9). */
describe('trainer API', () => {
  let rt: Awaited<ReturnType<typeof startRuntime>>;
  beforeAll(async () => {
    rt = await startRuntime({ systems: { trainer: { consoleLog: false } } });
  });
  afterAll(() => rt.stop());

  describe('authentication (§12.7)', () => {
    it('answers 401 on every trainer route without a valid bearer token', async () => {
      const routes: [string, string][] = [
        ['POST', '/agent/chat'],
        ['POST', '/agent/stream'],
        ['GET', '/agent/sessions'],
        ['POST', '/agent/sessions'],
        ['GET', '/agent/sessions/x'],
        ['GET', '/agent/sessions/x/events'],
        ['GET', '/users/me'],
        ['PUT', '/users/me/user_profile'],
      ];
      for (const [method, path] of routes) {
        const missing = await rt.runtime.app.request(path, {
          method,
          headers: { 'content-type': 'application/json' },
          body: method === 'GET' ? undefined : '{"message":"hi"}',
        });
        expect(missing.status, `${method} ${path}`).toBe(401);
        const invalid = await rt.runtime.app.request(path, {
          method,
          headers: { authorization: 'Bearer not.a.token' },
        });
        expect(invalid.status, `${method} ${path}`).toBe(401);
      }
    });
  });

  describe('bad input (§12.7)', () => {
    it('answers 400 naming `message` when it is missing, on chat and stream', async () => {
      for (const path of ['/agent/chat', '/agent/stream']) {
        const res = await rt.call('u-bad', 'POST', path, { sessionId: 'whatever' });
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe('validation_failed');
        expect(res.body.error.issues.map((i: { path: string }) => i.path)).toContain('message');
      }
    });

    it('refuses a blank message, malformed JSON, unknown fields and unknown models', async () => {
      expect((await rt.call('u-bad', 'POST', '/agent/chat', { message: '   ' })).status).toBe(400);
      expect((await rt.call('u-bad', 'POST', '/agent/chat', '{"message": ')).body.error.code).toBe('invalid_json');
      const extra = await rt.call('u-bad', 'POST', '/agent/chat', { message: 'hi', mesage: 'typo' });
      expect(extra.status).toBe(400);
      const model = await rt.call('u-bad', 'POST', '/agent/stream', { message: 'hi', model: 'gpt-5' });
      expect(model.status).toBe(400);
      expect(model.body.error.code).toBe('unknown_model');
      expect((await rt.call('u-bad', 'GET', '/agent/sessions?limit=abc')).status).toBe(400);
      // None of it started a session.
      expect((await rt.call('u-bad', 'GET', '/agent/sessions')).body.sessions).toEqual([]);
    });
  });

  describe('sessions', () => {
    it('lists the user own sessions, newest first, up to the limit', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++)
        ids.push((await rt.call('u-list', 'POST', '/agent/sessions', { metadata: { n: i } })).body.session.id);
      const all = await rt.call('u-list', 'GET', '/agent/sessions');
      expect(all.body.sessions.map((s: { id: string }) => s.id)).toEqual([...ids].reverse());
      const two = await rt.call('u-list', 'GET', '/agent/sessions?limit=2');
      expect(two.body.sessions).toHaveLength(2);
      expect(all.body.sessions[0].metadata).toEqual({ n: 2 });
    });

    it('continues the latest active session when no sessionId is given, and a new one after it completed', async () => {
      const first = await rt.call('u-cont', 'POST', '/agent/chat', { message: 'hello there' });
      expect(first.status).toBe(200);
      const second = await rt.call('u-cont', 'POST', '/agent/chat', { message: 'hello again' });
      // The first session ended as completed, so §12.5 getOrCreateSession makes a new one.
      expect(second.body.sessionId).not.toBe(first.body.sessionId);
      const again = await rt.call('u-cont', 'POST', '/agent/chat', {
        message: 'and once more',
        sessionId: first.body.sessionId,
      });
      expect(again.body.sessionId).toBe(first.body.sessionId);
    });
  });

  describe('row-level security (§7.7)', () => {
    it("answers 404 for another user's session on every route, exactly as for a missing one", async () => {
      const owner = await rt.call('u-owner', 'POST', '/agent/chat', { message: 'Give me a quick chest workout' });
      expect(owner.status).toBe(200);
      const id = owner.body.sessionId;
      const artifactId = owner.body.actions.find((a: { tool: string }) => a.tool === 'generate_workout').result
        .artifact_id;
      const paths: [string, string, unknown?][] = [
        ['GET', `/agent/sessions/${id}`],
        ['GET', `/agent/sessions/${id}/events`],
        ['GET', `/agent/sessions/${id}/artifacts/${artifactId}`],
        ['POST', '/agent/chat', { message: 'let me in', sessionId: id }],
        ['POST', '/agent/stream', { message: 'let me in', sessionId: id }],
      ];
      for (const [method, path, body] of paths) {
        const intruder = await rt.call('u-intruder', method, path, body);
        const missing = await rt.call(
          'u-intruder',
          method,
          path.replace(id, 'no-such-session'),
          body === undefined ? undefined : { ...(body as object), sessionId: 'no-such-session' },
        );
        expect(intruder.status, `${method} ${path}`).toBe(404);
        expect(intruder.body.error.code).toBe(missing.body.error.code);
      }
      expect((await rt.call('u-intruder', 'GET', '/agent/sessions')).body.sessions).toEqual([]);
      // The owner's session was not touched by any of it.
      const events = await rt.call('u-owner', 'GET', `/agent/sessions/${id}/events`);
      expect(events.body.events.filter((e: { event_type: string }) => e.event_type === 'user_message')).toHaveLength(1);
      expect((await rt.call('u-owner', 'GET', `/agent/sessions/${id}/artifacts/${artifactId}`)).status).toBe(200);
      expect((await rt.call('u-owner', 'GET', `/agent/sessions/${id}/artifacts/art_missing`)).status).toBe(404);
    });
  });

  describe('visualizer live view', () => {
    it("shows the agent loop of the user's own session, in the state its last turn ended in", async () => {
      const chat = await rt.call('u-viz', 'POST', '/agent/chat', { message: 'Give me a quick chest workout' });
      const view = await rt.runtime.runSources.open('agentLoop', 'u-viz', chat.body.sessionId);
      expect(view.value()).toBe('completed');
      expect(view.recent?.().flatMap((t) => t.active)).toEqual(
        expect.arrayContaining([
          'agentLoop.initializing',
          'agentLoop.calling',
          'agentLoop.executing',
          'agentLoop.finishing',
          'agentLoop.completed',
        ]),
      );
      await expect(rt.runtime.runSources.open('agentLoop', 'u-other', chat.body.sessionId)).rejects.toThrow(
        /not found/,
      );
    });
  });

  describe('user data (§9)', () => {
    it('reads empty documents for a new user', async () => {
      const res = await rt.call('u-new', 'GET', '/users/me');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        user_id: 'u-new',
        all_locations: { locations: [] },
        workout_history: { workouts: [] },
        user_settings: { weight_unit: 'kg' },
      });
    });

    it('keeps each source a user puts, under its name or its short name', async () => {
      await setUpUser(rt.call, 'u-data');
      expect((await rt.call('u-data', 'GET', '/users/me/user_profile')).body).toEqual(USER_SETUP.user_profile);
      expect((await rt.call('u-data', 'GET', '/users/me/profile')).body).toEqual(USER_SETUP.user_profile);
      const locations = await rt.call('u-data', 'GET', '/users/me/locations');
      expect(locations.body.locations.map((l: { id: string }) => l.id)).toEqual(['loc-home', 'loc-gym']);
      expect((await rt.call('u-data', 'GET', '/users/me/category_goals')).body).toEqual(USER_SETUP.category_goals);
      // Another user sees none of it.
      expect((await rt.call('u-other', 'GET', '/users/me/profile')).body).toEqual({});
    });

    it('refuses an invalid document with a 400 naming the field, keeping what was stored', async () => {
      await rt.call('u-val', 'PUT', '/users/me/profile', { age: 30 });
      const bad = await rt.call('u-val', 'PUT', '/users/me/profile', { age: 3 });
      expect(bad.status).toBe(400);
      expect(bad.body.error.issues.map((i: { path: string }) => i.path)).toEqual(['age']);
      const typo = await rt.call('u-val', 'PUT', '/users/me/settings', { weight_units: 'lb' });
      expect(typo.status).toBe(400);
      expect((await rt.call('u-val', 'GET', '/users/me/profile')).body).toEqual({ age: 30 });
      expect((await rt.call('u-val', 'GET', '/users/me/nonsense')).status).toBe(404);
    });

    it('lets a new user set up and use the trainer from the API alone', async () => {
      await setUpUser(rt.call, 'u-fresh');
      const chat = await rt.call('u-fresh', 'POST', '/agent/chat', { message: 'Give me a quick chest workout' });
      expect(chat.status).toBe(200);
      const events = await rt.call('u-fresh', 'GET', `/agent/sessions/${chat.body.sessionId}/events`);
      const request = events.body.events.find((e: { event_type: string }) => e.event_type === 'llm_request');
      // The user data XML of §4.4 carries what the user put.
      expect(request.data.prompt).toContain('Home Gym');
      expect(request.data.prompt).toContain('Weight: 82kg');
      const knowledge = events.body.events
        .filter((e: { event_type: string }) => e.event_type === 'knowledge')
        .map((e: { data: { source: string } }) => e.data.source);
      expect(knowledge).toEqual(
        expect.arrayContaining(['category_goals', 'muscle_goals', 'active_preferences', 'workout_history']),
      );
    });
  });
});
