import { describe, expect, it } from 'vitest';
import type { Client } from '@a2a-js/sdk/client';
import { payload } from '../../support/nutrition/nutrition-fakes.ts';
import { collect, send, stateName, userMessage } from '../../support/a2a/a2a-server.ts';
import { servedRuntimes } from '../../support/a2a/served-runtimes.ts';

const { serve } = servedRuntimes();

const paused = () => ({ ...payload('intake_data'), menstrual_status: 'amenorrhea' });

async function pausedTask(client: Client) {
  const task = await client.sendMessage(send(userMessage({ data: paused() })));
  if (!('id' in task)) throw new Error('expected a task');
  expect(stateName(task.status?.state)).toBe('input-required');
  return task;
}

/** What a stream sent after its first event, as lines, once it ended. */
async function subscribed(client: Client, id: string) {
  const stream = client.resubscribeTask({ tenant: '', id });
  const first = await stream.next();
  if (first.done || first.value.payload?.$case !== 'task') throw new Error('expected the task first');
  return { task: first.value.payload.value, rest: collect(stream) };
}

describe('SubscribeToTask over A2A', () => {
  it('follows a task under way to completed: the task, then working, each artifact in the order the run made them, then completed', async () => {
    const { server } = await serve();
    const client = await server.client('ada', 'nutrition');
    const task = await pausedTask(client);
    const { task: snapshot, rest } = await subscribed(client, task.id);
    expect(stateName(snapshot.status?.state)).toBe('input-required');
    const resumed = await client.sendMessage(send(userMessage({ text: 'I saw the referral.' }, task.id)));
    if (!('id' in resumed)) throw new Error('expected a task');
    const { lines } = await rest;
    expect(lines[0]).toBe('status:working');
    expect(lines.at(-1)).toBe('status:completed');
    const artifacts = lines.filter((line) => line.startsWith('artifact:')).map((line) => line.slice(9));
    // Those the task did not have when subscribed, each once.
    const before = new Set(snapshot.artifacts.map((a) => a.name));
    // (their order is the journal's: a2a-nutrition.test.ts checks it against the run's messages)
    expect([...artifacts].sort()).toEqual(
      resumed.artifacts
        .map((a) => a.name)
        .filter((name) => !before.has(name))
        .sort(),
    );
    expect(artifacts.length).toBeGreaterThan(0);
  });

  it('follows a task the server before a restart started, on the same data', async () => {
    const first = await serve();
    const task = await pausedTask(await first.server.client('ada', 'nutrition'));
    await first.harness.stop(false);
    const again = await serve({}, first.harness.dir);
    const client = await again.server.client('ada', 'nutrition');
    const { task: snapshot, rest } = await subscribed(client, task.id);
    expect(snapshot.id).toBe(task.id);
    expect(stateName(snapshot.status?.state)).toBe('input-required');
    await client.sendMessage(send(userMessage({ text: 'I saw the referral.' }, task.id)));
    const { lines } = await rest;
    expect(lines[0]).toBe('status:working');
    expect(lines.at(-1)).toBe('status:completed');
    expect(lines.filter((line) => line.startsWith('artifact:')).length).toBeGreaterThan(0);
  });

  it('answers tasks/resubscribe (v0.3) the same way, in v0.3 shapes', async () => {
    const { harness, server } = await serve();
    const client = await server.client('ada', 'nutrition');
    const task = await pausedTask(client);
    const response = fetch(`${server.base}/a2a/nutrition`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await harness.token('ada')}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tasks/resubscribe', params: { id: task.id } }),
    });
    const body = (await response).body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    // Read the snapshot before the reply, so the stream is following when the run goes on.
    while (!text.includes('\n\n')) text += decoder.decode((await body.read()).value);
    await client.sendMessage(send(userMessage({ text: 'I saw the referral.' }, task.id)));
    for (let chunk = await body.read(); !chunk.done; chunk = await body.read()) text += decoder.decode(chunk.value);
    const results = [...text.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]!).result);
    expect(results[0]).toMatchObject({ kind: 'task', id: task.id, status: { state: 'input-required' } });
    expect(results[1]).toMatchObject({ kind: 'status-update', status: { state: 'working' } });
    expect(results.at(-1)).toMatchObject({ kind: 'status-update', status: { state: 'completed' }, final: true });
    expect(results.some((r) => r.kind === 'artifact-update')).toBe(true);
  });

  it('refuses a final task (read it with GetTask), and another user’s task is not found', async () => {
    const { server } = await serve();
    const client = await server.client('ada', 'nutrition');
    const done = await client.sendMessage(send(userMessage({ data: payload('intake_data') })));
    if (!('id' in done)) throw new Error('expected a task');
    await expect(collect(client.resubscribeTask({ tenant: '', id: done.id }))).rejects.toThrow(/GetTask/);
    const task = await pausedTask(client);
    const bob = await server.client('bob', 'nutrition');
    await expect(collect(bob.resubscribeTask({ tenant: '', id: task.id }))).rejects.toThrow(/not found/i);
  });
});
