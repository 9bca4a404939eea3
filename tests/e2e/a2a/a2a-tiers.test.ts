import { describe, expect, it } from 'vitest';
import { collect, send, stateName, userMessage } from '../../support/a2a/a2a-server.ts';
import { servedRuntimes } from '../../support/a2a/served-runtimes.ts';
import { tiersStateOf } from '../../../server/tiers/a2a-mapping.ts';
import { example } from '../../support/tiers/tiers-e2e.ts';

const { serve } = servedRuntimes();

/** The data of a task's artifact by name. */
function artifactData(
  task: { artifacts: { name: string; parts: { content?: { $case: string; value?: unknown } }[] }[] },
  name: string,
) {
  const content = task.artifacts.find((a) => a.name === name)?.parts[0]?.content;
  return content?.$case === 'data' ? (content.value as any) : undefined;
}

describe('tiered delegation over A2A', () => {
  it('lists its skill on its card, with an example a client can send as it is', async () => {
    const { server, harness } = await serve();
    const card = (await (await fetch(`${server.base}/a2a/tiers/.well-known/agent-card.json`)).json()) as any;
    expect(card.skills.map((s: any) => s.id)).toEqual(['tiers-solve']);
    const sample = JSON.parse(card.skills[0].examples[0]);
    // The card's example is a body the tiers' own route takes.
    expect((await harness.call('ada', 'POST', '/tiers/tasks', sample)).status).toBe(201);
  }, 60_000);

  it('solves a problem sent as a data part: completed, the code and its test result as tiers/ artifacts', async () => {
    const { harness, server } = await serve();
    const client = await server.client('ada', 'tiers');
    const body = await example('tiers-task.json');
    const task = await client.sendMessage(send(userMessage({ data: body })));
    if (!('id' in task)) throw new Error('expected a task');
    expect(stateName(task.status?.state)).toBe('completed');
    // The task is the tiers task: its context is the task id, readable over the tiers' own route.
    const view = (await harness.call('ada', 'GET', `/tiers/tasks/${task.contextId}`)).body;
    expect(view.status).toBe('success');
    expect(task.artifacts.map((a) => a.metadata?.schema)).toEqual(
      view.outcome.artifacts.map((a: any) => `tiers/${a.artifact_type}`),
    );
    const code = artifactData(task, 'code');
    expect(code.metadata.language).toBe('javascript');
    // The code really is a binary search: it runs here on an input of its own.
    const search = new Function(`${code.content}; return search;`)() as (nums: number[], target: number) => number;
    expect(search([2, 4, 6, 8, 10, 12, 14], 12)).toBe(5);
    const total = body.problem.test_cases.length;
    const results = task.artifacts.filter((a) => a.metadata?.schema === 'tiers/test_result');
    expect(results.length).toBeGreaterThan(0);
    for (const result of results) {
      const data = artifactData(task, result.name);
      expect(data.metadata).toMatchObject({ passed: expect.any(Number), failed: 0 });
    }
    expect(results.some((r) => artifactData(task, r.name).metadata.passed === total)).toBe(true);
  }, 60_000);

  it('streams working, then the artifacts, then completed; text beside the data is the objective', async () => {
    const { harness, server } = await serve();
    const client = await server.client('ada', 'tiers');
    const { objective: _objective, ...body } = await example('tiers-task.json');
    const { lines, events } = await collect(
      client.sendMessageStream(send(userMessage({ data: body, text: 'Binary search, from the A2A text part' }))),
    );
    expect(lines.slice(0, 2)).toEqual(['task:submitted', 'status:working']);
    expect(lines.at(-1)).toBe('status:completed');
    expect(lines.slice(2, -1).every((line) => line.startsWith('artifact:'))).toBe(true);
    expect(lines).toContain('artifact:code');
    const first = events[0]!.payload;
    if (first?.$case !== 'task') throw new Error('expected the task first');
    const messages = (await harness.call('ada', 'GET', `/tiers/tasks/${first.value.contextId}/messages`)).body.messages;
    expect(messages[0].payload.objective).toBe('Binary search, from the A2A text part');
  }, 60_000);

  it('refuses text alone and a bad body with invalid params naming the field', async () => {
    const { server } = await serve();
    const client = await server.client('ada', 'tiers');
    await expect(client.sendMessage(send(userMessage({ text: 'write binary search' })))).rejects.toThrow(/data part/);
    const body = await example('tiers-task.json');
    body.problem.language = 'python';
    await expect(client.sendMessage(send(userMessage({ data: body })))).rejects.toThrow(/data\.problem\.language/);
  }, 60_000);

  it('ends an unknown problem rejected (the fleet refused it), with the reason', async () => {
    const { server } = await serve();
    const client = await server.client('ada', 'tiers');
    const task = await client.sendMessage(send(userMessage({ data: await example('tiers-task-unknown.json') })));
    if (!('id' in task)) throw new Error('expected a task');
    expect(stateName(task.status?.state)).toBe('rejected');
    const reason = task.status?.message?.parts[0]?.content;
    expect(reason?.$case === 'text' && reason.value).toMatch(/unsupported_problem/);
  }, 60_000);

  it('asks the user on contradictory tests (input-required), and a reply on the task answers it', async () => {
    const { harness, server } = await serve();
    const client = await server.client('ada', 'tiers');
    const asked = await client.sendMessage(send(userMessage({ data: await example('tiers-task-ambiguous.json') })));
    if (!('id' in asked)) throw new Error('expected a task');
    expect(stateName(asked.status?.state)).toBe('input-required');
    const question = asked.status?.message?.parts[0]?.content;
    expect(question?.$case === 'text' && question.value).toMatch(/expect/i);
    // A reply with no answer is refused before anything resumes, naming the field; the task still waits.
    await expect(
      client.sendMessage(send(userMessage({ data: { answer: '' } }, asked.id, asked.contextId))),
    ).rejects.toThrow(/data\.answer/);
    expect(
      stateName((await client.getTask({ tenant: '', id: asked.id, historyLength: undefined })).status?.state),
    ).toBe('input-required');
    const answer = (await example('tiers-clarification.json')).answer as string;
    const answered = await client.sendMessage(send(userMessage({ text: answer }, asked.id, asked.contextId)));
    if (!('id' in answered)) throw new Error('expected a task');
    expect(answered.id).toBe(asked.id);
    // The answer keeps the agreeing test case: the task is solved and reads as the tiers' own view.
    const view = (await harness.call('ada', 'GET', `/tiers/tasks/${asked.contextId}`)).body;
    expect(view.status).toBe('success');
    expect(stateName(answered.status?.state)).toBe('completed');
    expect(stateName(answered.status?.state)).toBe(tiersStateOf(view));
    const messages = (await harness.call('ada', 'GET', `/tiers/tasks/${asked.contextId}/messages`)).body.messages;
    const roots = messages.filter((m: any) => m.source_tier === 'PROGRESS_MONITOR' && m.payload.task_type);
    expect(roots).toHaveLength(2);
    expect(JSON.stringify(roots[1].payload.task_data)).toContain(answer);
  }, 60_000);
});
