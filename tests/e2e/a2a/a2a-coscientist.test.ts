import type { StreamResponse, Task } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { OFFLINE_BRAINS } from '../../../actors/coscientist/agents/offline-brains.ts';
import type { CoscientistOptions } from '../../../server/coscientist/module.ts';
import { collect, send, stateName, userMessage } from '../../support/a2a/a2a-server.ts';
import { servedRuntimes } from '../../support/a2a/served-runtimes.ts';

const runtimes = servedRuntimes();

/** The runtime served, the coscientist's brains and hooks changed by `coscientist`. */
const serve = (coscientist: CoscientistOptions = {}) =>
  runtimes.serve({ systems: { coscientist: { onError: () => {}, ...coscientist } } });

type Harness = Awaited<ReturnType<typeof serve>>['harness'];

/** A short goal: one iteration of two hypotheses. */
const SHORT = {
  goal: 'Find epigenetic targets that reverse liver fibrosis',
  iterations: 1,
  hypotheses_per_iteration: 2,
};

function dataOf(task: Pick<Task, 'artifacts'>, name: string): any {
  const content = task.artifacts.find((a) => a.name === name)?.parts[0]?.content;
  return content?.$case === 'data' ? content.value : undefined;
}

/** Reads the goal's own event stream (`GET /research/:id/events`) until a state event reads `state`. */
async function untilState(harness: Harness, id: string, state: string) {
  const response = await harness.runtime.app.request(`/research/${id}/events`, {
    headers: { authorization: `Bearer ${await harness.token('ada')}` },
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  while (!text.includes(`"state":"${state}"`)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the goal's stream ended before ${state}: ${text}`);
    text += value;
  }
  await reader.cancel();
}

/** The first event of a stream (the task), and the rest collected in the background. */
async function firstThenRest(stream: AsyncGenerator<StreamResponse>) {
  const first = await stream.next();
  const task = first.value?.payload;
  if (task?.$case !== 'task') throw new Error('expected the task first');
  return { task: task.value, rest: collect(stream) };
}

describe('the research co-scientist over A2A', () => {
  it('runs a goal sent as text to completed: the ranked hypotheses and the overview as artifacts', async () => {
    const { harness, server } = await serve();
    const card = (await (await fetch(`${server.base}/a2a/coscientist/.well-known/agent-card.json`)).json()) as any;
    expect(card.skills.map((s: any) => s.id)).toEqual(['research-goal']);
    const client = await server.client('ada', 'coscientist');
    // The card's first example, sent as it is.
    const task = await client.sendMessage(send(userMessage({ text: card.skills[0].examples[0] })));
    if (!('id' in task)) throw new Error('expected a task');
    expect(stateName(task.status?.state)).toBe('completed');
    expect(task.artifacts.map((a) => [a.name, a.metadata?.schema])).toEqual([
      ['hypotheses', 'coscientist/ranked_hypotheses'],
      ['overview', 'coscientist/research_overview'],
    ]);
    // The goal is the task's context; the artifacts read as the goal's own routes.
    const id = task.contextId;
    const view = (await harness.call('ada', 'GET', `/research/${id}`)).body;
    expect(view).toMatchObject({ state: 'completed', iteration: 3 });
    const ranked = (await harness.call('ada', 'GET', `/research/${id}/hypotheses`)).body.hypotheses;
    expect(dataOf(task, 'hypotheses').hypotheses).toEqual(ranked);
    const elos = ranked.map((h: { elo: number }) => h.elo);
    expect(elos).toEqual([...elos].sort((a: number, b: number) => b - a));
    expect(dataOf(task, 'overview')).toEqual((await harness.call('ada', 'GET', `/research/${id}/overview`)).body);
  }, 60_000);

  it('streams working, then the artifacts as they change, then completed; bad input names its field', async () => {
    const { harness, server } = await serve();
    const client = await server.client('ada', 'coscientist');
    const { lines, events } = await collect(client.sendMessageStream(send(userMessage({ data: SHORT }))));
    expect(lines.slice(0, 2)).toEqual(['task:submitted', 'status:working']);
    expect(lines.at(-1)).toBe('status:completed');
    expect(lines.slice(2, -1).every((line) => line.startsWith('artifact:'))).toBe(true);
    const first = events[0]!.payload;
    if (first?.$case !== 'task') throw new Error('expected the task first');
    // The last hypotheses sent are the final ranking.
    const last = events
      .map((e) => e.payload)
      .filter((p) => p?.$case === 'artifactUpdate' && p.value.artifact?.name === 'hypotheses')
      .at(-1);
    const content = last?.$case === 'artifactUpdate' ? last.value.artifact?.parts[0]?.content : undefined;
    const ranked = (await harness.call('ada', 'GET', `/research/${first.value.contextId}/hypotheses`)).body.hypotheses;
    expect(content?.$case === 'data' && (content.value as any).hypotheses).toEqual(ranked);

    await expect(client.sendMessage(send(userMessage({ data: { ...SHORT, iterations: 0 } })))).rejects.toThrow(
      /data\.iterations/,
    );
    await expect(client.sendMessage(send(userMessage({ text: 'Design a faster sorting algorithm' })))).rejects.toThrow(
      /^text: the goal names no built-in domain/,
    );
    await expect(
      client.sendMessage(send(userMessage({ data: { goal: 'Design a faster sorting algorithm' } }))),
    ).rejects.toThrow(/data\.domain/);
  }, 60_000);

  it('waits for the scientist as input-required, and guidance sent as a reply resumes it to completed', async () => {
    let broken = true;
    const { harness, server } = await serve({
      fault: (task) => (broken && task.task_id === 'i1-d1' ? new Error('judge unavailable') : undefined),
    });
    const client = await server.client('ada', 'coscientist');
    const asked = await client.sendMessage(send(userMessage({ data: SHORT })));
    if (!('id' in asked)) throw new Error('expected a task');
    expect(stateName(asked.status?.state)).toBe('input-required');
    const question = asked.status?.message?.parts[0]?.content;
    expect(question?.$case === 'text' && question.value).toMatch(/i1-d1.*judge unavailable/);
    await expect(client.sendMessage(send(userMessage({ text: ' ' }, asked.id, asked.contextId)))).rejects.toThrow(
      /text/,
    );
    broken = false;
    const resumed = await client.sendMessage(
      send(userMessage({ text: 'The judge is back, retry.' }, asked.id, asked.contextId)),
    );
    if (!('id' in resumed)) throw new Error('expected a task');
    expect(resumed.id).toBe(asked.id);
    expect(stateName(resumed.status?.state)).toBe('completed');
    const guidance = (await harness.call('ada', 'GET', `/research/${asked.contextId}/memory?entry_type=guidance`)).body
      .entries;
    expect(guidance.map((e: any) => e.content.text)).toEqual(['The judge is back, retry.']);
  }, 60_000);

  it('CancelTask stops a running goal: in-flight tasks finish, the stream ends canceled, the goal is stopped', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let reviewing!: () => void;
    const reviewStarted = new Promise<void>((resolve) => (reviewing = resolve));
    const { harness, server } = await serve({
      brains: {
        ...OFFLINE_BRAINS,
        REFLECTION: async (input, context) => {
          reviewing();
          await gate;
          return OFFLINE_BRAINS.REFLECTION(input, context);
        },
      },
    });
    const client = await server.client('ada', 'coscientist');
    const { task, rest } = await firstThenRest(
      client.sendMessageStream(send(userMessage({ data: { ...SHORT, iterations: 3 } }))),
    );
    await reviewStarted;
    const cancelling = client.cancelTask({ tenant: '', id: task.id, metadata: {} });
    // The stop took: the goal lets its reviews in flight finish before it is stopped.
    await untilState(harness, task.contextId, 'stopping');
    open();
    const cancelled = await cancelling;
    expect(stateName(cancelled.status?.state)).toBe('canceled');
    const { lines } = await rest;
    expect(lines.at(-1)).toBe('status:canceled');
    expect((await harness.call('ada', 'GET', `/research/${task.contextId}`)).body.state).toBe('stopped');
    const tasks = (await harness.call('ada', 'GET', `/research/${task.contextId}/tasks`)).body.tasks;
    expect(tasks.some((t: any) => t.agent_type === 'RANKING')).toBe(false);
    const reread = await client.getTask({ tenant: '', id: task.id, historyLength: undefined });
    expect(stateName(reread.status?.state)).toBe('canceled');
    expect(dataOf(reread, 'hypotheses').hypotheses).toHaveLength(SHORT.hypotheses_per_iteration);
  }, 60_000);

  it('CancelTask stops a goal waiting for the scientist; a finished goal is not cancelable', async () => {
    let broken = true;
    const { harness, server } = await serve({
      fault: (task) => (broken && task.task_id === 'i1-d1' ? new Error('judge unavailable') : undefined),
    });
    const client = await server.client('ada', 'coscientist');
    const asked = await client.sendMessage(send(userMessage({ data: SHORT })));
    if (!('id' in asked)) throw new Error('expected a task');
    expect(stateName(asked.status?.state)).toBe('input-required');
    const cancelled = await client.cancelTask({ tenant: '', id: asked.id, metadata: {} });
    expect(stateName(cancelled.status?.state)).toBe('canceled');
    expect((await harness.call('ada', 'GET', `/research/${asked.contextId}`)).body.state).toBe('stopped');
    broken = false;
    const done = await client.sendMessage(
      send(userMessage({ data: { ...SHORT, goal: 'Antibiotic resistance spread' } })),
    );
    if (!('id' in done)) throw new Error('expected a task');
    expect(stateName(done.status?.state)).toBe('completed');
    await expect(client.cancelTask({ tenant: '', id: done.id, metadata: {} })).rejects.toThrow(/not cancelable/i);
  }, 60_000);
});
