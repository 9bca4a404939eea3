import { describe, expect, it } from 'vitest';
import type { Client } from '@a2a-js/sdk/client';
import { collect, send, stateName, userMessage } from '../../support/a2a/a2a-server.ts';
import { servedRuntimes } from '../../support/a2a/served-runtimes.ts';

const runtimes = servedRuntimes();

/** The runtime served, and ada's client of the trainer. */
async function serve() {
  const served = await runtimes.serve();
  return { ...served, client: await served.server.client('ada', 'trainer') };
}

/** A turn the trainer ends on a question (the scripted model asks on "hmm"). */
async function asked(client: Client) {
  const task = await client.sendMessage(send(userMessage({ text: 'hmm' })));
  if (!('id' in task)) throw new Error('expected a task');
  expect(stateName(task.status?.state)).toBe('input-required');
  return task;
}

describe('trainer tasks over A2A, across turns', () => {
  it('answers a malformed reply with invalid params naming the field, and the task still waits', async () => {
    const { client } = await serve();
    const task = await asked(client);
    const reply = (data: unknown) => client.sendMessage(send(userMessage({ data }, task.id, task.contextId)));
    await expect(reply({ message: '   ' })).rejects.toThrow(/data\.message/);
    await expect(reply({ message: 'ok', reps: 5 })).rejects.toThrow(/data/);
    const after = await client.getTask({ tenant: '', id: task.id, historyLength: undefined });
    expect(stateName(after.status?.state)).toBe('input-required');
    // It still takes a good reply.
    const answered = await client.sendMessage(
      send(userMessage({ text: 'Give me a quick chest workout' }, task.id, task.contextId)),
    );
    if (!('id' in answered)) throw new Error('expected a task');
    expect(stateName(answered.status?.state)).toBe('completed');
  });

  it('follows a task subscribed before the reply through the turn the reply starts, to completed', async () => {
    const { client } = await serve();
    const task = await asked(client);
    const stream = client.resubscribeTask({ tenant: '', id: task.id });
    const first = await stream.next();
    if (first.done || first.value.payload?.$case !== 'task') throw new Error('expected the task first');
    expect(stateName(first.value.payload.value.status?.state)).toBe('input-required');
    const rest = collect(stream);
    const answered = await client.sendMessage(
      send(userMessage({ text: 'Give me a quick chest workout' }, task.id, task.contextId)),
    );
    if (!('id' in answered)) throw new Error('expected a task');
    const { lines } = await rest;
    expect(lines[0]).toBe('status:working');
    expect(lines.at(-1)).toBe('status:completed');
    // The new turn's artifacts, its response last.
    expect(lines.filter((line) => line.startsWith('artifact:')).at(-1)).toBe('artifact:response');
    expect(lines.filter((line) => line.startsWith('artifact:')).length).toBe(answered.artifacts.length);
  });
});
