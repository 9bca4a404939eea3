import { afterEach, describe, expect, it } from 'vitest';
import { fromPromise, SimulatedClock } from 'xstate';
import type { TurnActivity } from '../../../actors/org/org-brains.ts';
import type { OrgEnvelope } from '../../../protocol/org/envelope.ts';
import type { AgentBrainInput } from '../../../protocol/runtime/agent-report.ts';
import type { DeliveredMessage } from '../../../protocol/runtime/routing.ts';
import { orgMessage } from '../../../actors/org/org-envelope.ts';
import { loadSystemModules } from '../../../server/system-modules.ts';
import { startRuntime } from '../../support/runtime-harness.ts';
import { SHOP_PRD } from '../../support/org/org-harness.ts';

const HOUR = 3_600_000;
const started: Awaited<ReturnType<typeof startRuntime>>[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((rt) => rt.stop().catch(() => undefined)));
});

describe('org deadlines over HTTP', () => {
  it('a request delivered past its payload.deadline, its work held, raises one timeline escalation the user sees', async () => {
    const rt = await startRuntime({ modules: await loadSystemModules() });
    started.push(rt);
    const id = (await rt.call('ada', 'POST', '/org/projects', { prd: SHOP_PRD })).body.project_id as string;
    const status = async () => (await rt.call('ada', 'GET', `/org/projects/${id}`)).body.status;
    await expect.poll(status, { timeout: 15_000, interval: 50 }).toBe('done');
    const late = orgMessage({
      from: 'chief-orchestration',
      to: 'devops',
      type: 'request',
      priority: 'high',
      payload: {
        task_id: 'hotfix-deploy',
        content: { kind: 'plan_deploy' },
        dependencies: ['never-done'],
        deadline: new Date(Date.now() - 60_000).toISOString(),
      },
      prdId: id,
      sprintId: 'x',
      seed: ['late'],
      at: Date.now(),
    });
    expect((await rt.call('ada', 'POST', '/org/messages', late)).status).toBe(202);
    await expect.poll(status, { timeout: 15_000, interval: 50 }).toBe('waiting_for_user');
    const { escalations } = (await rt.call('ada', 'GET', `/org/projects/${id}/escalations`)).body;
    expect(escalations).toEqual([
      expect.objectContaining({
        from: 'devops',
        status: 'awaiting_user',
        resolver: 'user',
        payload: expect.objectContaining({ conflict_type: 'timeline' }),
      }),
    ]);
    const { messages } = (await rt.call('ada', 'GET', `/org/projects/${id}/messages`)).body;
    const timelines = messages.filter((m: any) => m.envelope.payload.conflict_type === 'timeline');
    expect(timelines).toHaveLength(1);
    expect(timelines[0].envelope.context.related_messages).toEqual([late.message_id]);
  });
});

describe('org deadlines while agents work (simulated clock)', () => {
  it('fires a payload.deadline at its time while an agent is still working, not once the project is idle', async () => {
    const clock = new SimulatedClock();
    clock.set(Date.parse('2026-03-02T09:00:00Z'));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let working = 0;
    let ended = 0;
    // growth works on the stories until the test lets it go: the project stays busy meanwhile.
    const growth = (activity: TurnActivity) =>
      fromPromise<OrgEnvelope[], AgentBrainInput>(async ({ input }) => {
        const id = ((input.input as DeliveredMessage).envelope as OrgEnvelope).context!.prd_id!;
        activity(id, 1);
        working += 1;
        await gate;
        ended += 1;
        activity(id, -1);
        return [];
      });
    const modules = (await loadSystemModules()).filter((m) => m.name === 'org');
    const rt = await startRuntime({
      modules,
      clock,
      systems: { org: { brains: (_: unknown, activity: TurnActivity) => ({ growth: growth(activity) }) } },
    });
    started.push(rt);
    try {
      const id = (await rt.call('ada', 'POST', '/org/projects', { prd: SHOP_PRD })).body.project_id as string;
      await expect.poll(() => working, { timeout: 15_000 }).toBeGreaterThan(0);
      const late = orgMessage({
        from: 'chief-orchestration',
        to: 'devops',
        type: 'request',
        priority: 'high',
        payload: {
          task_id: 'hotfix-deploy',
          content: { kind: 'plan_deploy' },
          dependencies: ['never-done'],
          deadline: new Date(clock.now() + HOUR).toISOString(),
        },
        prdId: id,
        sprintId: 'x',
        seed: ['due'],
        at: clock.now(),
      });
      expect((await rt.call('ada', 'POST', '/org/messages', late)).status).toBe(202);
      const timelines = async () =>
        (await rt.call('ada', 'GET', `/org/projects/${id}/messages`)).body.messages.filter(
          (m: any) => m.envelope.payload.conflict_type === 'timeline',
        ).length;
      await expect.poll(async () => (await rt.call('ada', 'GET', `/org/projects/${id}`)).body.status).toBe('working');
      clock.increment(HOUR - 1_000);
      expect(await timelines()).toBe(0);
      clock.increment(1_000);
      await expect.poll(timelines, { timeout: 10_000 }).toBe(1);
      // growth still works (the project was never idle), and the escalation reached the user.
      expect(ended).toBe(0);
      await expect
        .poll(async () => (await rt.call('ada', 'GET', `/org/projects/${id}`)).body.status)
        .toBe('waiting_for_user');
    } finally {
      release();
    }
  });
});
