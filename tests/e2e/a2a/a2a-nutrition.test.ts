import { describe, expect, it } from 'vitest';
import { payload } from '../../support/nutrition/nutrition-fakes.ts';
import { collect, send, stateName, userMessage } from '../../support/a2a/a2a-server.ts';
import { servedRuntimes } from '../../support/a2a/served-runtimes.ts';

const { serve } = servedRuntimes();

const intake = (changes: Record<string, unknown> = {}) => ({ ...payload('intake_data'), ...changes });

describe('the nutrition pipeline over A2A', () => {
  it('runs an intake sent as a data part to completed, its outputs as artifacts', async () => {
    const { server } = await serve();
    const client = await server.client('ada', 'nutrition');
    const result = await client.sendMessage(send(userMessage({ data: intake() })));
    if (!('id' in result)) throw new Error('expected a task');
    expect(stateName(result.status?.state)).toBe('completed');
    // In the order the run produced them (the journal's, see below).
    expect(result.artifacts.map((a) => a.name).sort()).toEqual(
      [
        'macro_targets',
        'training_input',
        'nutrition_strategy',
        'weekly_meal_plan',
        'recipes',
        'training_program',
      ].sort(),
    );
    const task = await client.getTask({ tenant: '', id: result.id, historyLength: undefined });
    expect(task.contextId).toBe(result.contextId);
    expect(stateName(task.status?.state)).toBe('completed');
  });

  it('streams working, then each artifact, then completed', async () => {
    const { server } = await serve();
    const client = await server.client('ada', 'nutrition');
    const { lines } = await collect(client.sendMessageStream(send(userMessage({ data: intake() }))));
    expect(lines.slice(0, 2)).toEqual(['task:submitted', 'status:working']);
    expect(lines.at(-1)).toBe('status:completed');
    // Each output once, between working and completed.
    expect(lines.slice(2, -1).sort()).toEqual(
      ['macro_targets', 'nutrition_strategy', 'recipes', 'training_input', 'training_program', 'weekly_meal_plan'].map(
        (name) => `artifact:${name}`,
      ),
    );
  });

  it("replays each output envelope of the run's journal, one by one in journal order, as the stream's artifacts", async () => {
    const { harness, server } = await serve();
    const client = await server.client('ada', 'nutrition');
    const { lines, events } = await collect(client.sendMessageStream(send(userMessage({ data: intake() }))));
    const first = events[0]!.payload;
    if (first?.$case !== 'task') throw new Error('expected the task first');
    const { messages } = (await harness.call('ada', 'GET', `/pipelines/${first.value.contextId}/messages`)).body;
    const outputs = new Set(['macro_targets', 'training_input', 'nutrition_strategy', 'weekly_meal_plan', 'recipes']);
    outputs.add('training_program');
    const ids = new Set<string>();
    const journal = messages.filter(
      (m: any) => outputs.has(m.data_type) && !ids.has(m.message_id) && ids.add(m.message_id),
    );
    expect(lines.filter((line) => line.startsWith('artifact:'))).toEqual(
      journal.map((m: any) => `artifact:${m.data_type}`),
    );
    const sent = events.flatMap((e) => (e.payload?.$case === 'artifactUpdate' ? [e.payload.value.artifact] : []));
    expect(sent.map((a) => (a?.parts[0]?.content as any)?.value)).toEqual(journal.map((m: any) => m.payload));
  });

  it('pauses on amenorrhea as input-required, and a reply confirms the referral', async () => {
    const { server } = await serve();
    const client = await server.client('ada', 'nutrition');
    const first = await client.sendMessage(send(userMessage({ data: intake({ menstrual_status: 'amenorrhea' }) })));
    if (!('id' in first)) throw new Error('expected a task');
    expect(stateName(first.status?.state)).toBe('input-required');
    const resumed = await client.sendMessage(
      send(userMessage({ text: 'I saw the referral.' }, first.id, first.contextId)),
    );
    if (!('id' in resumed)) throw new Error('expected a task');
    expect(resumed.id).toBe(first.id);
    expect(stateName(resumed.status?.state)).toBe('completed');
  });
});
