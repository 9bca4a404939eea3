import { describe, expect, it } from 'vitest';
import { payload } from '../../support/nutrition/nutrition-fakes.ts';
import { collect, send, stateName, userMessage } from '../../support/a2a/a2a-server.ts';
import { servedRuntimes } from '../../support/a2a/served-runtimes.ts';

const { serve } = servedRuntimes();

const SYSTEMS = ['nutrition', 'trainer'];

describe('A2A agent cards and JSON-RPC', () => {
  it('serves a card per system without a token: skills, streaming, the bearer scheme, JSON-RPC 1.0 and 0.3', async () => {
    const { server } = await serve();
    for (const system of SYSTEMS) {
      const response = await fetch(`${server.base}/a2a/${system}/.well-known/agent-card.json`);
      expect(response.status).toBe(200);
      const card = (await response.json()) as any;
      expect(card.skills.length).toBeGreaterThan(0);
      expect(card.skills[0].examples.length).toBeGreaterThan(0);
      expect(card.capabilities.streaming).toBe(true);
      expect(card.securitySchemes.bearer.httpAuthSecurityScheme).toMatchObject({
        scheme: 'Bearer',
        bearerFormat: 'JWT',
      });
      expect(card.supportedInterfaces.map((i: any) => `${i.protocolBinding} ${i.protocolVersion} ${i.url}`)).toEqual([
        `JSONRPC 1.0 ${server.base}/a2a/${system}`,
        `JSONRPC 0.3 ${server.base}/a2a/${system}`,
      ]);
    }
  });

  it('refuses a call without a token (401), and answers bad input with invalid params naming the field', async () => {
    const { server } = await serve();
    const anonymous = await fetch(`${server.base}/a2a/nutrition`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }),
    });
    expect(anonymous.status).toBe(401);
    const client = await server.client('ada', 'nutrition');
    const bad = { ...payload('intake_data'), age: 'forty' };
    await expect(client.sendMessage(send(userMessage({ data: bad })))).rejects.toThrow(/data\.age/);
    await expect(client.sendMessage(send(userMessage({ text: 'plan my meals' })))).rejects.toThrow(/data part/);
  });

  it("keeps a user's tasks their own, and a pipeline task is not cancelable", async () => {
    const { server } = await serve();
    const ada = await server.client('ada', 'nutrition');
    const task = await ada.sendMessage(send(userMessage({ data: payload('intake_data') })));
    if (!('id' in task)) throw new Error('expected a task');
    const bob = await server.client('bob', 'nutrition');
    await expect(bob.getTask({ tenant: '', id: task.id, historyLength: undefined })).rejects.toThrow(/not found/i);
    await expect(ada.getTask({ tenant: '', id: 'no-such-task', historyLength: undefined })).rejects.toThrow(
      /not found/i,
    );
    await expect(ada.cancelTask({ tenant: '', id: task.id, metadata: {} })).rejects.toThrow(/not cancelable/i);
  });

  it('answers the v0.3 methods (no A2A-Version header) with v0.3 shapes', async () => {
    const { harness, server } = await serve();
    const client = await server.client('ada', 'nutrition');
    const task = await client.sendMessage(send(userMessage({ data: payload('intake_data') })));
    if (!('id' in task)) throw new Error('expected a task');
    const response = await fetch(`${server.base}/a2a/nutrition`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await harness.token('ada')}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tasks/get', params: { id: task.id } }),
    });
    const body = (await response.json()) as any;
    expect(body).toMatchObject({
      jsonrpc: '2.0',
      id: 7,
      result: { kind: 'task', id: task.id, status: { state: 'completed' } },
    });
    expect(body.result.artifacts.map((a: any) => a.name)).toContain('weekly_meal_plan');
  });

  it('reads a task the same after a restart on the same data', async () => {
    const first = await serve();
    const client = await first.server.client('ada', 'nutrition');
    const task = await client.sendMessage(send(userMessage({ data: payload('intake_data') })));
    if (!('id' in task)) throw new Error('expected a task');
    await first.harness.stop(false);
    const again = await serve({}, first.harness.dir);
    const reread = await (
      await again.server.client('ada', 'nutrition')
    ).getTask({
      tenant: '',
      id: task.id,
      historyLength: undefined,
    });
    expect(stateName(reread.status?.state)).toBe('completed');
    expect(reread.contextId).toBe(task.contextId);
    expect(reread.artifacts).toEqual(task.artifacts);
    expect(reread.history.map((m) => m.messageId)).toEqual(task.history.map((m) => m.messageId));
  });
});

describe('the trainer over A2A', () => {
  it('runs a chat turn to completed with the workout and the response as artifacts, in the session', async () => {
    const { harness, server } = await serve();
    const client = await server.client('ada', 'trainer');
    const { lines, events } = await collect(
      client.sendMessageStream(send(userMessage({ text: 'Give me a quick chest workout' }))),
    );
    expect(lines.slice(0, 2)).toEqual(['task:submitted', 'status:working']);
    expect(lines.slice(-2)).toEqual(['artifact:response', 'status:completed']);
    expect(lines.filter((line) => line.startsWith('artifact:')).length).toBeGreaterThanOrEqual(2);
    const first = events[0]!.payload;
    if (first?.$case !== 'task') throw new Error('expected the task first');
    const sessions = (await harness.call('ada', 'GET', '/agent/sessions')).body.sessions;
    expect(sessions.map((s: any) => s.id)).toContain(first.value.contextId);
  });

  it("ends a turn on the trainer's question as input-required, and a reply answers it under the same task", async () => {
    const { server } = await serve();
    const client = await server.client('ada', 'trainer');
    const asked = await client.sendMessage(send(userMessage({ text: 'hmm' })));
    if (!('id' in asked)) throw new Error('expected a task');
    expect(stateName(asked.status?.state)).toBe('input-required');
    const question = asked.status?.message?.parts[0]?.content;
    expect(question?.$case === 'text' && question.value.length > 0).toBe(true);
    const answered = await client.sendMessage(
      send(userMessage({ text: 'Give me a quick chest workout' }, asked.id, asked.contextId)),
    );
    if (!('id' in answered)) throw new Error('expected a task');
    expect(answered.id).toBe(asked.id);
    expect(answered.contextId).toBe(asked.contextId);
    expect(stateName(answered.status?.state)).toBe('completed');
    const task = await client.getTask({ tenant: '', id: asked.id, historyLength: undefined });
    expect(task.history.filter((m) => m.role === 1).length).toBe(2);
  });
});
