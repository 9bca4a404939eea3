import { afterEach, describe, expect, it } from 'vitest';
import { orgMessage } from '../../../actors/org/org-envelope.ts';
import { loadSystemModules } from '../../../server/system-modules.ts';
import { startRuntime } from '../../support/runtime-harness.ts';
import { SHOP_PRD } from '../../support/org/org-harness.ts';

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
