import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAnthropicProvider } from '../../../../actors/models/anthropic-provider.ts';
import { openModelBackends, type BackendChoice } from '../../../../actors/models/model-backends.ts';
import type { ModelSettings } from '../../../../actors/models/model-settings.ts';
import { startFakeModelServer, type FakeModelServer } from '../../../support/models/fake-model-server.ts';
import { fakeServerSettings } from '../../../support/models/fake-server-backends.ts';

const PRIMARY = 'claude-haiku-4-5';
const UNREACHABLE = 'http://127.0.0.1:9';

/** A caller of every backend, answering which one it got. */
const everything: BackendChoice<string> = {
  offline: () => 'offline',
  anthropic: ({ model }) => `anthropic ${model}`,
  openai: () => 'openai',
};
const claudeOnly: BackendChoice<string> = { offline: () => 'offline', anthropic: () => 'anthropic' };
const openaiOnly: BackendChoice<string> = { offline: () => 'offline', openai: () => 'openai' };

const backendsWith = (settings: Partial<ModelSettings>) => openModelBackends({ primaryModel: PRIMARY, ...settings });

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.unstubAllEnvs();
});

describe('openModelBackends', () => {
  it('runs everything offline without a key', () => {
    const backends = backendsWith({});
    expect(backends.configured).toEqual([]);
    expect(backends.describe()).toBe('offline');
    for (const caller of [everything, claudeOnly, openaiOnly]) expect(backends.choose(caller)).toBe('offline');
  });

  it('gives Claude on the configured base URL and PRIMARY_MODEL to a caller that supports it', async () => {
    server = await startFakeModelServer({ anthropic: [{ toolUse: { name: 'idle', input: { reason: 'done' } } }] });
    const backends = openModelBackends(
      fakeServerSettings(server, { openaiApiKey: undefined, primaryModel: 'claude-sonnet-4-5' }),
      { maxRetries: 0 },
    );
    expect(backends.configured).toEqual(['anthropic']);
    expect(backends.describe()).toBe('Claude claude-sonnet-4-5');
    expect(backends.choose(everything)).toBe('anthropic claude-sonnet-4-5');

    const claude = backends.choose({
      offline: () => undefined,
      anthropic: ({ client }) => createAnthropicProvider({ client }),
    });
    const message = await claude?.call({
      model: 'claude-sonnet-4-5',
      system: [],
      tools: [],
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(message?.content).toEqual([expect.objectContaining({ type: 'tool_use', name: 'idle' })]);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.path).toBe('/v1/messages');
    const headers = server.requests[0]?.headers ?? {};
    expect(headers['x-api-key'] ?? headers['authorization']).toMatch(/^(Bearer )?sk-ant-test$/);
  });

  it('never lets the SDK read a base URL from the environment behind the configuration', () => {
    vi.stubEnv('ANTHROPIC_BASE_URL', UNREACHABLE);
    vi.stubEnv('OPENAI_BASE_URL', UNREACHABLE);
    const backends = backendsWith({ anthropicApiKey: 'sk-ant-test', openaiApiKey: 'sk-test' });
    expect(backends.choose({ offline: () => '', anthropic: ({ client }) => client.baseURL })).toBe(
      'https://api.anthropic.com',
    );
    expect(backends.choose({ offline: () => '', openai: ({ client }) => client.baseURL })).toBe(
      'https://api.openai.com/v1',
    );
  });

  it('gives OpenAI with an OpenAI key only to a caller that supports it', async () => {
    server = await startFakeModelServer({ openai: [{ json: { ok: true } }] });
    const backends = openModelBackends(fakeServerSettings(server, { anthropicApiKey: undefined }), { maxRetries: 0 });
    expect(backends.configured).toEqual(['openai']);
    expect(backends.describe()).toBe('OpenAI');
    expect(backends.choose(openaiOnly)).toBe('openai');
    expect(backends.choose(everything)).toBe('openai');
    expect(backends.choose(claudeOnly)).toBe('offline');

    const client = backends.choose({ offline: () => undefined, openai: ({ client }) => client });
    expect(client?.baseURL).toBe(`${server.url}/v1`);
    const completion = await client?.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(completion?.choices[0]?.message.content).toBe('{"ok":true}');
    expect(server.requests[0]?.path).toBe('/v1/chat/completions');
  });

  it('tries Anthropic before OpenAI, and a caller without an anthropic option falls back (to OpenAI, else offline)', () => {
    const both = backendsWith({
      anthropicApiKey: 'sk-ant-test',
      anthropicBaseUrl: UNREACHABLE,
      openaiApiKey: 'sk-test',
      openaiBaseUrl: UNREACHABLE,
    });
    expect(both.configured).toEqual(['anthropic', 'openai']);
    expect(both.describe()).toBe(`Claude ${PRIMARY} + OpenAI`);
    expect(both.choose(everything)).toBe(`anthropic ${PRIMARY}`);
    expect(both.choose(openaiOnly)).toBe('openai');

    const anthropicOnly = backendsWith({ anthropicApiKey: 'sk-ant-test', anthropicBaseUrl: UNREACHABLE });
    expect(anthropicOnly.choose(openaiOnly)).toBe('offline');
    expect(anthropicOnly.choose({ offline: () => 'offline' })).toBe('offline');
  });

  it('makes each client once, on first use, and shares it', () => {
    const backends = backendsWith({ anthropicApiKey: 'sk-ant-test', anthropicBaseUrl: UNREACHABLE });
    const offline = vi.fn(() => undefined);
    const first = backends.choose({ offline, anthropic: ({ client }) => client });
    const second = backends.choose({ offline, anthropic: ({ client }) => client });
    expect(first).toBeDefined();
    expect(second).toBe(first);
    expect(offline).not.toHaveBeenCalled();
  });

  it('treats an empty key as no key', () => {
    expect(backendsWith({ anthropicApiKey: '', openaiApiKey: '' }).choose(everything)).toBe('offline');
  });
});
