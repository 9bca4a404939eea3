import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { InspectionEvent } from 'xstate';
import type { AgentBrains } from '../../../actors/coscientist/agents/agent-context.ts';
import { OFFLINE_BRAINS } from '../../../actors/coscientist/agents/offline-brains.ts';
import type { CoscientistOptions, OpenCoscientist } from '../../../server/coscientist/module.ts';
import { startRuntime } from '../../support/runtime-harness.ts';

const started: Awaited<ReturnType<typeof startRuntime>>[] = [];
async function start(coscientist: CoscientistOptions = {}, dir?: string) {
  const rt = await startRuntime({ systems: { coscientist: { onError: () => {}, ...coscientist } } }, dir);
  started.push(rt);
  return rt;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((rt) => rt.stop().catch(() => undefined)));
});

type Runtime = Awaited<ReturnType<typeof start>>;
const serviceOf = (rt: Runtime) => (rt.runtime.systems.coscientist as OpenCoscientist).service;
const stateOf = async (rt: Runtime, id: string, user = 'ada') =>
  (await rt.call(user, 'GET', `/research/${id}`)).body.state;
const until = (rt: Runtime, id: string, state: string, user = 'ada') =>
  expect.poll(() => stateOf(rt, id, user), { timeout: 20_000, interval: 20 }).toBe(state);
/** Waits until the goal has left memory (it rests or ended). */
const untilResting = (rt: Runtime, id: string) =>
  expect.poll(() => serviceOf(rt).liveState(id), { timeout: 20_000, interval: 20 }).toBeUndefined();

/** Offline brains whose REFLECTION waits for `open()` once armed: goals stay working meanwhile. */
function gatedBrains(armed = true) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const gating = { armed };
  const brains: AgentBrains = {
    ...OFFLINE_BRAINS,
    REFLECTION: async (input, context) => {
      if (gating.armed) await gate;
      return OFFLINE_BRAINS.REFLECTION(input, context);
    },
  };
  return { brains, open, arm: () => void (gating.armed = true) };
}

/** The goals written to the store (one document each). */
const goalFiles = async (rt: Runtime) =>
  (await readdir(join(rt.dir, 'store', 'coscientist', 'goals.docs')).catch(() => [])).length;

type Task = { task_id: string; status: string; assigned_at: string | null; finished_at: string | null };

describe('/research on the run host (issue 13)', () => {
  it('refuses a goal beyond the limits with 429 (per user) or 503 (in all) and Retry-After, writing nothing', async () => {
    const { brains, open } = gatedBrains();
    const rt = await start({ brains, admission: { maxWorking: 2, maxPerOwner: 1 } });
    const goal = { goal: 'liver fibrosis', iterations: 1 };
    const first = await rt.call('ada', 'POST', '/research', goal);
    expect(first.status).toBe(201);
    const perUser = await rt.call('ada', 'POST', '/research', goal);
    expect([perUser.status, perUser.body.error.code]).toEqual([429, 'too_many_runs']);
    expect(perUser.response.headers.get('retry-after')).toBe('1');
    expect((await rt.call('bob', 'POST', '/research', goal)).status).toBe(201);
    const full = await rt.call('cy', 'POST', '/research', goal);
    expect([full.status, full.body.error.code]).toEqual([503, 'overloaded']);
    expect(full.response.headers.get('retry-after')).toBe('1');
    // A refused body is not even read for its domain: admission comes first.
    expect((await rt.call('cy', 'POST', '/research', { goal: 'astronomy' })).status).toBe(503);
    expect(await goalFiles(rt)).toBe(2);
    open();
    await until(rt, first.body.research_id, 'completed');
    await untilResting(rt, first.body.research_id);
    // The finished goal gave its slot back.
    expect((await rt.call('ada', 'POST', '/research', goal)).status).toBe(201);
  });

  it('lets a completed goal leave memory; a later GET reads it from disk with its task times', async () => {
    const rt = await start();
    const id = (await rt.call('ada', 'POST', '/research', { goal: 'liver fibrosis', iterations: 1 })).body.research_id;
    await until(rt, id, 'completed');
    await untilResting(rt, id);
    const view = (await rt.call('ada', 'GET', `/research/${id}`)).body;
    expect(view).toMatchObject({ research_id: id, state: 'completed', iteration: 1 });
    expect(view.counts.matches).toBeGreaterThan(0);
    const tasks: Task[] = (await rt.call('ada', 'GET', `/research/${id}/tasks`)).body.tasks;
    expect(tasks.length).toBeGreaterThan(5);
    for (const task of tasks) {
      expect(task.status).toBe('done');
      expect(Date.parse(task.finished_at!)).toBeGreaterThanOrEqual(Date.parse(task.assigned_at!));
    }
    expect(serviceOf(rt).liveState(id)).toBeUndefined(); // the read did not keep it
    expect((await rt.call('bob', 'GET', `/research/${id}`)).status).toBe(404);
  });

  it('rests a goal waiting for the scientist; guidance wakes it (admission checked) and it completes', async () => {
    let broken = true;
    const { brains, open, arm } = gatedBrains(false);
    const rt = await start({
      brains,
      admission: { maxWorking: 1, maxPerOwner: 1 },
      fault: (task) => (broken && task.task_id === 'i1-d2' ? new Error('judge unavailable') : undefined),
    });
    const id = (await rt.call('ada', 'POST', '/research', { goal: 'repurpose drugs for AML', iterations: 1 })).body
      .research_id;
    await until(rt, id, 'awaiting_scientist');
    await untilResting(rt, id);
    // Resting, it holds no slot: bob's goal gets in, and then the host is full for ada's wake-up.
    arm();
    const other = await rt.call('bob', 'POST', '/research', { goal: 'liver fibrosis', iterations: 1 });
    expect(other.status).toBe(201);
    broken = false;
    const refused = await rt.call('ada', 'POST', `/research/${id}/guidance`, { text: 'The judge is back.' });
    expect([refused.status, refused.response.headers.get('retry-after')]).toEqual([503, '1']);
    expect((await rt.call('ada', 'GET', `/research/${id}/memory?entry_type=guidance`)).body.entries).toEqual([]);
    open();
    await until(rt, other.body.research_id, 'completed', 'bob');
    await untilResting(rt, other.body.research_id);
    const answered = await rt.call('ada', 'POST', `/research/${id}/guidance`, { text: 'The judge is back.' });
    expect(answered.status).toBe(202);
    await until(rt, id, 'completed');
    await untilResting(rt, id);
  });

  it('keeps task times across a restart and resumes only the goals of the index', async () => {
    const rt = await start({
      fault: (task) => (task.task_id === 'i1-d1' ? new Error('judge unavailable') : undefined),
    });
    const resting = (await rt.call('ada', 'POST', '/research', { goal: 'repurpose drugs for AML', iterations: 1 })).body
      .research_id;
    await until(rt, resting, 'awaiting_scientist');
    await untilResting(rt, resting);
    const gated = gatedBrains();
    await rt.stop(false);
    const second = await start({ brains: gated.brains }, rt.dir);
    const working = (await second.call('ada', 'POST', '/research', { goal: 'liver fibrosis', iterations: 1 })).body
      .research_id;
    await until(second, working, 'reviewing');
    const before: Task[] = (await second.call('ada', 'GET', `/research/${working}/tasks`)).body.tasks;
    const generation = before.find((t) => t.task_id === 'i1-gen')!;
    expect(generation.finished_at).not.toBeNull();
    await second.stop(false);

    const third = await start({}, rt.dir);
    // Only the working goal came back at start-up; the resting one stays on disk until asked.
    expect(serviceOf(third).liveState(resting)).toBeUndefined();
    await until(third, working, 'completed');
    const after: Task[] = (await third.call('ada', 'GET', `/research/${working}/tasks`)).body.tasks;
    expect(after.find((t) => t.task_id === 'i1-gen')).toMatchObject({
      assigned_at: generation.assigned_at,
      finished_at: generation.finished_at,
    });
    expect(after.every((t) => t.assigned_at !== null && t.finished_at !== null)).toBe(true);
    expect(await stateOf(third, resting)).toBe('awaiting_scientist');
  });

  it('draws a working goal live on the research statechart, for its owner only', async () => {
    const { brains, open } = gatedBrains();
    const rt = await start({ brains });
    const id = (await rt.call('ada', 'POST', '/research', { goal: 'liver fibrosis', iterations: 1 })).body.research_id;
    await until(rt, id, 'reviewing');
    const view = await rt.runtime.runSources.open('research', 'ada', id);
    expect(view.value()).toBe('reviewing');
    await expect(rt.runtime.runSources.open('research', 'bob', id)).rejects.toThrow(/not found/);
    expect(await rt.runtime.runSources.list('research', 'ada')).toEqual([
      { id, label: 'liver fibrosis', state: 'reviewing' },
    ]);
    expect(await rt.runtime.runSources.list('research', 'bob')).toEqual([]);
    const heard: InspectionEvent[] = [];
    const stop = view.subscribe((event) => heard.push(event));
    open();
    await until(rt, id, 'completed');
    stop();
    const targets = heard.flatMap((e) =>
      e.type === '@xstate.microstep' ? e._transitions.map((t) => t.target?.[0]?.key) : [],
    );
    expect(targets).toEqual(['tournament', 'ranking', 'evolving', 'meta_reviewing', 'completed']);
    expect(view.recent!().at(-1)!.active).toContain('research.completed');
    await untilResting(rt, id);
    const later = await rt.runtime.runSources.open('research', 'ada', id);
    expect(later.value()).toBe('completed');
  });
});
