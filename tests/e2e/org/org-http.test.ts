import { afterEach, describe, expect, it } from 'vitest';
import { orgMessage } from '../../../actors/org/org-envelope.ts';
import { loadSystemModules } from '../../../server/system-modules.ts';
import { startRuntime } from '../../support/runtime-harness.ts';
import { EXTERNAL_HANDOFF_ID, externalContractHandoff } from '../../support/org/external-handoff.ts';
import { SHOP_PRD } from '../../support/org/org-harness.ts';

const started: Awaited<ReturnType<typeof startRuntime>>[] = [];
async function start() {
  const rt = await startRuntime({ modules: await loadSystemModules() });
  started.push(rt);
  return rt;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((rt) => rt.stop().catch(() => undefined)));
});

type Rt = Awaited<ReturnType<typeof start>>;
const statusOf = async (rt: Rt, id: string) => (await rt.call('ada', 'GET', `/org/projects/${id}`)).body.status;
const settled = (rt: Rt, id: string, status: string) =>
  expect.poll(() => statusOf(rt, id), { timeout: 15_000, interval: 50 }).toBe(status);

describe('the org system over HTTP (offline brains)', () => {
  it('runs a PRD to done with every handoff accepted and the decisions in the knowledge graph', async () => {
    const rt = await start();
    const created = await rt.call('ada', 'POST', '/org/projects', { prd: SHOP_PRD, sprint_id: 'sprint-9' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ sprint_id: 'sprint-9', status: 'working' });
    const id = created.body.project_id as string;
    await settled(rt, id, 'done');
    const { handoffs } = (await rt.call('ada', 'GET', `/org/projects/${id}/handoffs`)).body;
    expect(handoffs.length).toBe(10);
    expect(handoffs.every((h: any) => h.state === 'accepted' && h.rejections === 0)).toBe(true);
    const { messages } = (await rt.call('ada', 'GET', `/org/projects/${id}/messages`)).body;
    expect(messages.every((m: any) => m.envelope.context.prd_id === id)).toBe(true);
    const requests = messages.filter((m: any) => m.envelope.message_type === 'request');
    expect(requests.every((m: any) => Object.values(m.ack).every((state) => state === 'acked'))).toBe(true);
    const decisions = (await rt.call('ada', 'GET', '/org/knowledge?type=decision&status=active')).body.nodes;
    expect(decisions.map((n: any) => n.claim.topic).sort()).toEqual(['api-style', 'storage']);
    const node = (await rt.call('ada', 'GET', `/org/knowledge/${encodeURIComponent(`${id}:api_contract:v1`)}`)).body;
    expect(node.relations.outgoing).toEqual([{ type: 'derived_from', to: `${id}:stories:v1` }]);
    expect((await rt.call('bob', 'GET', `/org/projects/${id}`)).status).toBe(404);
    expect((await rt.call('bob', 'GET', '/org/knowledge')).body.nodes).toEqual([]);
    const bad = await rt.call('ada', 'POST', '/org/projects', { prd: { ...SHOP_PRD, features: [] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toBe('prd.features');
  });

  it('streams messages, handoffs and escalations as SSE and closes once settled', async () => {
    const rt = await start();
    const id = (await rt.call('ada', 'POST', '/org/projects', { prd: SHOP_PRD })).body.project_id as string;
    const stream = await rt.call('ada', 'GET', `/org/projects/${id}/events?until=settled`);
    expect(stream.status).toBe(200);
    const text = stream.body as string;
    const events = [...text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    expect(events.at(-1)).toBe('settled');
    expect(text).toContain('data: {"status":"done"}');
    const { messages } = (await rt.call('ada', 'GET', `/org/projects/${id}/messages`)).body;
    expect(events.filter((e) => e === 'message')).toHaveLength(messages.length);
    expect(events.filter((e) => e === 'handoff')).toHaveLength(20);
    expect((await rt.call('bob', 'GET', `/org/projects/${id}/events`)).status).toBe(404);
  });

  it('rejects the contract once after the PRD is amended, then accepts backend’s fix', async () => {
    const rt = await start();
    const id = (await rt.call('ada', 'POST', '/org/projects', { prd: SHOP_PRD })).body.project_id as string;
    await settled(rt, id, 'done');
    const amended = await rt.call('ada', 'PATCH', `/org/projects/${id}/prd`, {
      features: [{ id: 'wishlist', title: 'Saved wishlist', acceptance_criteria: ['Save an item'] }],
    });
    expect(amended.status).toBe(202);
    await settled(rt, id, 'done');
    const { handoffs } = (await rt.call('ada', 'GET', `/org/projects/${id}/handoffs`)).body;
    const contract = handoffs.find((h: any) => h.handoff_id === 'backend>frontend:api_contract#2');
    expect(contract).toMatchObject({ state: 'accepted', rejections: 1 });
    expect(contract.history.map((s: any) => s.state)).toEqual([
      'notified',
      'validating',
      'rejected',
      'notified',
      'validating',
      'accepted',
    ]);
  });

  it('refuses an external message outside its channel and escalates a deliverable rejected twice', async () => {
    const rt = await start();
    const id = (await rt.call('ada', 'POST', '/org/projects', { prd: SHOP_PRD })).body.project_id as string;
    await settled(rt, id, 'done');
    const base = { prdId: id, sprintId: 'x', at: Date.now(), priority: 'high' as const };
    const stray = orgMessage({
      ...base,
      from: 'growth',
      to: 'database',
      type: 'request',
      payload: { task_id: 't', content: {} },
      seed: ['stray'],
    });
    const refused = await rt.call('ada', 'POST', '/org/messages', stray);
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('outside_channel');
    expect(refused.body.error.issues[0].path).toBe('destination_agent');
    const { messages } = (await rt.call('ada', 'GET', `/org/projects/${id}/messages`)).body;
    expect(messages.filter((m: any) => m.envelope.message_id === stray.message_id)).toEqual([
      {
        envelope: stray,
        ack: {},
        refusal: expect.objectContaining({ code: 'outside_channel', field: 'destination_agent' }),
      },
    ]);
    // A contract without endpoints fails its schema: rejected, twice.
    const handoff = (n: number) =>
      externalContractHandoff({ ...base, n, deliverable: { prd_version: 1, endpoints: [] } });
    const rejections = async () =>
      (await rt.call('ada', 'GET', `/org/projects/${id}/handoffs`)).body.handoffs.find(
        (h: any) => h.handoff_id === EXTERNAL_HANDOFF_ID,
      )?.rejections;
    for (const n of [1, 2]) {
      expect((await rt.call('ada', 'POST', '/org/messages', handoff(n))).status).toBe(202);
      await expect.poll(rejections, { timeout: 15_000, interval: 50 }).toBe(n);
    }
    await settled(rt, id, 'waiting_for_user');
    const { escalations } = (await rt.call('ada', 'GET', `/org/projects/${id}/escalations`)).body;
    expect(escalations).toEqual([
      expect.objectContaining({
        from: 'frontend',
        status: 'awaiting_user',
        payload: expect.objectContaining({ conflict_type: 'quality' }),
      }),
    ]);
    const resolved = await rt.call(
      'ada',
      'POST',
      `/org/projects/${id}/escalations/${escalations[0].escalation_id}/resolve`,
      {
        decision: 'Backend publishes the contract again through its own handoff.',
      },
    );
    expect(resolved.status).toBe(200);
    expect(resolved.body.resolution).toMatchObject({ by: 'user', applied_recommendation: false });
  });

  it('escalates a PRD constraint that clashes with an active decision, and supersedes it only when the user applies it', async () => {
    const rt = await start();
    const first = (await rt.call('ada', 'POST', '/org/projects', { prd: SHOP_PRD })).body.project_id as string;
    await settled(rt, first, 'done');
    const offline = {
      ...SHOP_PRD,
      features: [{ ...SHOP_PRD.features[0]!, constraints: [{ topic: 'storage', value: 'offline-first' }] }],
    };
    const second = (await rt.call('ada', 'POST', '/org/projects', { prd: offline })).body.project_id as string;
    await settled(rt, second, 'waiting_for_user');
    const { escalations } = (await rt.call('ada', 'GET', `/org/projects/${second}/escalations`)).body;
    expect(escalations).toHaveLength(1);
    const [escalation] = escalations;
    expect(escalation.payload.conflict_type).toBe('quality');
    let storage = (await rt.call('ada', 'GET', '/org/knowledge?tag=storage')).body.nodes;
    expect(storage.map((n: any) => [n.claim.value, n.status])).toEqual([['server-only', 'active']]);
    const resolved = await rt.call(
      'ada',
      'POST',
      `/org/projects/${second}/escalations/${escalation.escalation_id}/resolve`,
      {
        decision: 'Go offline-first from now on.',
        apply_recommendation: true,
      },
    );
    expect(resolved.status).toBe(200);
    storage = (await rt.call('ada', 'GET', '/org/knowledge?tag=storage')).body.nodes;
    expect(storage.map((n: any) => [n.claim.value, n.status]).sort()).toEqual([
      ['offline-first', 'active'],
      ['server-only', 'superseded'],
    ]);
    await settled(rt, second, 'done');
  });
});
