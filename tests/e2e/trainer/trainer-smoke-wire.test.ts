import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../../support/models/fake-model-server.ts';
import { startRuntime } from '../../support/runtime-harness.ts';
import { defineSmokeSuite } from '../../support/trainer/trainer-smoke-suite.ts';
import { smokeScript, workoutSelectionScript } from '../../support/trainer/trainer-wire-scripts.ts';

/**
 * The §12.9 smoke test with the real `@anthropic-ai/sdk` and `openai` clients, pointed at a local
 * fake server that speaks their wire formats, plays a scripted Claude and GPT-4o-mini, and checks
 * every request it receives.
 */
describe('trainer smoke test (spec 001 §12.9) on the real SDK clients against a fake model server', () => {
  let server: FakeModelServer;
  beforeAll(async () => {
    server = await startFakeModelServer({ anthropic: smokeScript, openai: workoutSelectionScript });
  });
  afterAll(() => server.close());

  defineSmokeSuite({
    start: () =>
      startRuntime({ systems: { trainer: { consoleLog: false } } }, undefined, {
        anthropicApiKey: 'sk-ant-test',
        anthropicBaseUrl: server.url,
        openaiApiKey: 'sk-test',
        openaiBaseUrl: `${server.url}/v1`,
      }),
    billed: true,
    model: 'claude-haiku-4-5',
    afterStep: () => expect(server.violations).toEqual([]),
  });

  it('sent every model call through the fake server, and the initializer once per turn', () => {
    const anthropic = server.requests.filter((r) => r.endpoint === 'anthropic');
    const openai = server.requests.filter((r) => r.endpoint === 'openai');
    // Two turns of generate_workout, message_notify_user, idle.
    expect(anthropic).toHaveLength(6);
    expect(openai).toHaveLength(2);
    expect(anthropic.every((r) => (r.body as { model: string }).model === 'claude-haiku-4-5')).toBe(true);
    expect(openai.every((r) => (r.body as { model: string }).model === 'gpt-4o-mini')).toBe(true);
    expect(server.violations).toEqual([]);
  });
});
