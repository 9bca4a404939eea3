import { afterEach, describe, expect, it } from 'vitest';
import {
  startFakeModelServer,
  type FakeModelServer,
  type ViolationRule,
} from '../../../support/models/fake-model-server.ts';

const CC = { type: 'ephemeral' };
type Body = Record<string, unknown> & { messages: { role: string; content: unknown }[] };

/** A request that follows every rule. */
function validBody(): Body {
  return {
    model: 'claude-haiku-4-5',
    max_tokens: 8192,
    tool_choice: { type: 'any' },
    tools: [
      { name: 'idle', input_schema: { type: 'object' } },
      { name: 'fetch_data', input_schema: { type: 'object' }, cache_control: CC },
    ],
    system: [
      { type: 'text', text: 'You are a trainer.', cache_control: CC },
      { type: 'text', text: '<user_data></user_data>', cache_control: CC },
    ],
    messages: [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'idle', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok', cache_control: CC }] },
    ],
  };
}

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function post(path: string, body: unknown, headers: Record<string, string> = { 'x-api-key': 'k' }) {
  const response = await fetch(`${server?.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function rulesBrokenBy(mutate: (body: Body) => void): Promise<ViolationRule[]> {
  server = await startFakeModelServer({ anthropic: () => ({ toolUse: { name: 'idle', input: { reason: 'x' } } }) });
  const body = validBody();
  mutate(body);
  await post('/v1/messages', body);
  return server.violations.map((violation) => violation.rule);
}

describe('fake model server checks', () => {
  it('accepts a request that follows every rule', async () => {
    expect(await rulesBrokenBy(() => {})).toEqual([]);
  });

  it.each<[string, ViolationRule, (body: Body) => void]>([
    ['tool_choice auto', 'tool_choice', (b) => (b['tool_choice'] = { type: 'auto' })],
    ['no tool_choice', 'tool_choice', (b) => delete b['tool_choice']],
    ['max_tokens 4096', 'max_tokens', (b) => (b['max_tokens'] = 4096)],
    [
      'a fifth cache_control',
      'cache_control_count',
      (b) => ((b['tools'] as Record<string, unknown>[])[0] = { name: 'idle', input_schema: {}, cache_control: CC }),
    ],
    [
      'cache_control on the first message',
      'cache_control_place',
      (b) => (b.messages[0] = { role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: CC }] }),
    ],
    [
      'no cache_control on the user data',
      'cache_control_missing',
      (b) => ((b['system'] as Record<string, unknown>[])[1] = { type: 'text', text: 'x' }),
    ],
    [
      'a tool_use without its result',
      'tool_result_pairing',
      (b) => (b.messages[2] = { role: 'user', content: [{ type: 'text', text: 'go on', cache_control: CC }] }),
    ],
    [
      'a result for another call',
      'tool_result_pairing',
      (b) =>
        (b.messages[2] = {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'ok', cache_control: CC }],
        }),
    ],
  ])('flags %s', async (_name, rule, mutate) => {
    expect(await rulesBrokenBy(mutate)).toContain(rule);
  });

  it('flags a missing key, a body that is not an object, other endpoints and unscripted requests', async () => {
    server = await startFakeModelServer();
    await post('/v1/messages', validBody(), {});
    await post('/v1/messages', '[1, 2]');
    const other = await post('/v1/responses', { model: 'gpt-4o-mini' });
    expect(other.status).toBe(404);
    expect(server.violations.map((v) => [v.request, v.rule])).toEqual([
      [0, 'auth'],
      [0, 'unscripted_request'],
      [1, 'malformed_body'],
      [2, 'unexpected_endpoint'],
    ]);
  });

  it('checks the initializer asks for a strict JSON Schema', async () => {
    server = await startFakeModelServer({ openai: [{ json: { ok: true } }, { json: { ok: true } }] });
    const headers = { authorization: 'Bearer k' };
    await post(
      '/v1/chat/completions',
      { model: 'gpt-4o-mini', messages: [], response_format: { type: 'json_object' } },
      headers,
    );
    const strict = { type: 'json_schema', json_schema: { name: 'x', strict: true, schema: { type: 'object' } } };
    const answer = await post(
      '/v1/chat/completions',
      { model: 'gpt-4o-mini', messages: [], response_format: strict },
      headers,
    );
    expect(server.violations.map((v) => [v.request, v.rule])).toEqual([[0, 'response_format']]);
    expect(answer.body).toMatchObject({
      object: 'chat.completion',
      model: 'gpt-4o-mini',
      choices: [{ message: { role: 'assistant', content: '{"ok":true}', refusal: null }, finish_reason: 'stop' }],
    });
  });

  it('plays queued replies in order, then scripted functions with the request, and reports usage', async () => {
    server = await startFakeModelServer({ anthropic: [{ error: { status: 529, message: 'Overloaded' } }] });
    server.enqueue('anthropic', { toolUse: { id: 'toolu_x', name: 'idle', input: { reason: 'r' } } });
    const overloaded = await post('/v1/messages', validBody());
    expect(overloaded).toEqual({
      status: 529,
      body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    });
    const answered = await post('/v1/messages', validBody());
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-haiku-4-5',
      content: [{ type: 'tool_use', id: 'toolu_x', name: 'idle', input: { reason: 'r' } }],
      stop_reason: 'tool_use',
    });
    // The second identical request reads what the first wrote.
    const usage = answered.body['usage'] as Record<string, number>;
    expect(usage['cache_read_input_tokens']).toBe(server.requests[0]?.usage?.cache_creation_input_tokens);
    await server.close();

    const seen: [string, number][] = [];
    server = await startFakeModelServer({
      anthropic: (body, index) => {
        seen.push([String(body['model']), index]);
        return { toolUse: { name: 'idle', input: { reason: `call ${index}` } } };
      },
    });
    await post('/v1/messages', validBody());
    const second = await post('/v1/messages', { ...validBody(), model: 'claude-opus-4-5' });
    expect(seen).toEqual([
      ['claude-haiku-4-5', 0],
      ['claude-opus-4-5', 1],
    ]);
    expect(second.body['content']).toEqual([
      { type: 'tool_use', id: 'toolu_fake_2', name: 'idle', input: { reason: 'call 1' } },
    ]);
    expect(() => server?.enqueue('anthropic', { toolUse: { name: 'idle', input: {} } })).toThrow(/function/);
  });
});
