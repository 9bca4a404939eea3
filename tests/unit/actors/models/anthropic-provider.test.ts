import { afterEach, describe, expect, it } from 'vitest';
import { buildAgentContext } from '../../../../actors/trainer/context/context-builder.ts';
import { createAnthropicProvider } from '../../../../actors/models/anthropic-provider.ts';
import { costOfTokens } from '../../../../actors/models/model-cost.ts';
import { ModelError } from '../../../../actors/models/model-error.ts';
import type { ModelRequest } from '../../../../actors/models/model-provider.ts';
import { MODEL_IDS } from '../../../../actors/models/model-registry.ts';
import { readModelResponse } from '../../../../actors/models/model-response.ts';
import { cacheHitRate } from '../../../../actors/trainer/events/session-cost.ts';
import { getToolDefinitions } from '../../../../actors/trainer/tools/index.ts';
import type { ContextEvent } from '../../../../protocol/trainer/session-event.ts';
import type { AgentSession } from '../../../../protocol/trainer/session.ts';
import {
  startFakeModelServer,
  type AnthropicReply,
  type FakeModelServer,
} from '../../../support/models/fake-model-server.ts';
import { fakeServerClients } from '../../../support/models/fake-server-backends.ts';
import { asEvents, toolCall, toolResult, userMessage } from '../../../support/trainer/trainer-events.ts';

const SESSION = { id: 'session-1' } as AgentSession;
const SYSTEM_PROMPT = 'You are an AI personal trainer. Respond only through tools. '.repeat(40);
const USER_DATA =
  '<user_data>\n<current_location>\nLocation: Home Gym\nEquipment:\n  - Dumbbells\n</current_location>\n</user_data>';

type Row = Pick<ContextEvent, 'event_type' | 'data'>;

function requestOf(model: string, rows: Row[]): ModelRequest {
  const context = buildAgentContext({
    session: SESSION,
    events: asEvents(rows) as ContextEvent[],
    userDataXml: USER_DATA,
    systemPrompt: SYSTEM_PROMPT,
    tools: getToolDefinitions(),
  });
  return { model, system: context.system, tools: context.tools, messages: context.messages };
}

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function providerWith(replies: AnthropicReply[]) {
  server = await startFakeModelServer({ anthropic: replies });
  return { server, provider: createAnthropicProvider({ client: fakeServerClients(server).anthropic }) };
}

const idle = { toolUse: { name: 'idle', input: { reason: 'done' } } };

describe('Anthropic provider through the real SDK (spec 001 §3.3)', () => {
  it('sends exactly the built context with forced tool use and 8192 tokens, and reads the tool call', async () => {
    const { server, provider } = await providerWith([
      { toolUse: { id: 'toolu_abc', name: 'message_notify_user', input: { message: 'Hi!' } }, text: 'thinking aloud' },
    ]);
    const request = requestOf('claude-haiku-4-5', [userMessage('Hello')]);
    const message = await provider.call(request);

    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0]?.body as Record<string, unknown>;
    expect(sent).toMatchObject({ model: 'claude-haiku-4-5', max_tokens: 8192, tool_choice: { type: 'any' } });
    expect(sent['tools']).toEqual(JSON.parse(JSON.stringify(request.tools)));
    expect(sent['system']).toEqual(request.system);
    expect(sent['messages']).toEqual(request.messages);
    const headers = server.requests[0]?.headers ?? {};
    expect(headers['x-api-key'] ?? headers['authorization']).toMatch(/^(Bearer )?sk-ant-test$/);
    expect(server.violations).toEqual([]);

    expect(message.content).toEqual([
      { type: 'text', text: 'thinking aloud' },
      { type: 'tool_use', id: 'toolu_abc', name: 'message_notify_user', input: { message: 'Hi!' } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.usage).toEqual({ ...server.requests[0]?.usage, output_tokens: message.usage.output_tokens });
    expect(message.usage.cache_creation_input_tokens).toBeGreaterThan(1000);
  });

  it.each(MODEL_IDS)(
    '%s: reads more than half of the input from the cache from the second iteration, and costs money',
    async (model) => {
      const { server, provider } = await providerWith([
        { toolUse: { id: 'toolu_1', name: 'generate_workout', input: { workout: { title: 'Chest' } } } },
        idle,
      ]);
      const rows: Row[] = [userMessage('Give me a quick chest workout')];
      const first = readModelResponse(await provider.call(requestOf(model, rows)), { requestedModel: model, provider });
      expect(first.usage.cached).toBe(0);
      rows.push(
        toolCall('toolu_1', 'generate_workout', { workout: { title: 'Chest' } }),
        toolResult('toolu_1', 'Workout created as art_1'),
      );
      const second = readModelResponse(await provider.call(requestOf(model, rows)), {
        requestedModel: model,
        provider,
      });

      expect(cacheHitRate(second.usage)).toBeGreaterThan(50);
      expect(second.usage.cached).toBe(first.usage.cache_write);
      expect(second.costCents).toBeGreaterThan(0);
      expect(second.costCents).toBeCloseTo(costOfTokens(model, second.usage), 12);
      expect(second.costCents).toBeLessThan(first.costCents);
      expect(second.toolCall?.name).toBe('idle');
      expect(server.violations).toEqual([]);
    },
  );

  it('maps API errors to ModelError kinds that say what to do', async () => {
    const { provider } = await providerWith([
      { error: { status: 400, message: 'messages: text content blocks must be non-empty' } },
      { error: { status: 401, message: 'invalid x-api-key' } },
      { error: { status: 429, message: 'rate limited' } },
      { error: { status: 529, message: 'Overloaded' } },
    ]);
    const request = requestOf('claude-haiku-4-5', [userMessage('Hello')]);
    const failures: ModelError[] = [];
    for (let i = 0; i < 4; i += 1) {
      const error = await provider.call(request).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ModelError);
      failures.push(error as ModelError);
    }
    expect(failures.map((e) => [e.kind, e.upstreamStatus, e.retryable])).toEqual([
      ['invalid_request', 400, false],
      ['authentication', 401, false],
      ['rate_limited', 429, true],
      ['server_error', 529, true],
    ]);
    expect(failures[0]?.message).toContain('text content blocks must be non-empty');
    expect(failures[1]?.message).toContain('ANTHROPIC_API_KEY');
    expect(failures[0]?.code).toBe('model_invalid_request');
  });

  it('reports an unreachable API and an aborted call', async () => {
    const { server: live, provider } = await providerWith([idle]);
    const request = requestOf('claude-haiku-4-5', [userMessage('Hello')]);
    const controller = new AbortController();
    controller.abort();
    await expect(provider.call(request, controller.signal)).rejects.toMatchObject({ kind: 'aborted' });
    await live.close();
    server = undefined;
    await expect(provider.call(request)).rejects.toMatchObject({ name: 'ModelError', kind: 'connection' });
  });

  it('returns a response without a tool call as it is, for the loop to stop on (§3.2)', async () => {
    const { provider } = await providerWith([{ content: [{ type: 'text', text: 'Sure!' }] }]);
    const message = await provider.call(requestOf('claude-sonnet-4-5', [userMessage('Hello')]));
    const read = readModelResponse(message, { requestedModel: 'claude-sonnet-4-5', provider });
    expect(read.toolCall).toBeUndefined();
    expect(read.text).toBe('Sure!');
    expect(read.stopReason).toBe('end_turn');
  });

  it('refuses a tool call whose input is not an object', async () => {
    const { provider } = await providerWith([
      { content: [{ type: 'tool_use', id: 't', name: 'idle', input: 'done' }] },
    ]);
    await expect(provider.call(requestOf('claude-haiku-4-5', [userMessage('Hello')]))).rejects.toMatchObject({
      kind: 'invalid_response',
    });
  });
});
