import { describe, expect, it } from 'vitest';
import type { Client } from '@a2a-js/sdk/client';
import { TaskNotCancelableError } from '@a2a-js/sdk/errors';
import { SHOP_PRD } from '../../support/org/org-harness.ts';
import { collect, send, stateName, userMessage } from '../../support/a2a/a2a-server.ts';
import { OFFLINE_PRD } from '../../support/a2a/offline-prd.ts';
import { servedRuntimes } from '../../support/a2a/served-runtimes.ts';
import { ORG_ROLES, orgBrain, type TurnActivity, type WorkspaceOf } from '../../../actors/org/org-brains.ts';

const { serve } = servedRuntimes();

async function task(client: Client, data: unknown) {
  const result = await client.sendMessage(send(userMessage({ data })));
  if (!('id' in result)) throw new Error('expected a task');
  return result;
}

/** Each deliverable version the project's journal hands off, once, in order (read over HTTP). */
async function handedOff(harness: Awaited<ReturnType<typeof serve>>['harness'], projectId: string) {
  const { messages } = (await harness.call('ada', 'GET', `/org/projects/${projectId}/messages`)).body;
  const locations = messages
    .map((m: any) => m.envelope.payload?.content)
    .filter((c: any) => c?.kind === 'handoff_notification')
    .map((c: any) => c.location as string);
  return [...new Set<string>(locations)].map((location) => /deliverables\/([a-z_]+)\/v\d+$/.exec(location)![1]!);
}

describe('the product org over A2A', () => {
  it('serves its card: the org skill with examples a client can send as they are', async () => {
    const { server } = await serve();
    const card = (await (await fetch(`${server.base}/a2a/org/.well-known/agent-card.json`)).json()) as any;
    expect(card.skills.map((s: any) => s.id)).toEqual(['org-project']);
    expect(card.capabilities.streaming).toBe(true);
    const [prd, reply] = card.skills[0].examples.map((e: string) => JSON.parse(e));
    expect(prd.prd.features.length).toBeGreaterThan(0);
    expect(reply).toMatchObject({ decision: expect.any(String) });
    // The PRD example starts a project as it is.
    const started = await task(await server.client('ada', 'org'), prd);
    expect(stateName(started.status?.state)).toBe('completed');
  });

  it('runs a PRD sent as a data part to completed, the project as context and its deliverables as artifacts', async () => {
    const { harness, server } = await serve();
    const client = await server.client('ada', 'org');
    const done = await task(client, { prd: SHOP_PRD, sprint_id: 'sprint-a2a' });
    expect(stateName(done.status?.state)).toBe('completed');
    const project = (await harness.call('ada', 'GET', `/org/projects/${done.contextId}`)).body;
    expect(project).toMatchObject({ project_id: done.contextId, sprint_id: 'sprint-a2a', status: 'done' });
    const deliverables = new Map(project.deliverables.map((d: any) => [d.type, d]));
    expect(done.artifacts.map((a) => a.name).sort()).toEqual([...deliverables.keys()].sort());
    for (const artifact of done.artifacts) {
      const deliverable = deliverables.get(artifact.name) as any;
      expect(artifact.metadata).toEqual({ schema: `org/${artifact.name}@${deliverable.schema_version}` });
      const part = artifact.parts[0]!.content;
      expect(part?.$case === 'data' && part.value).toEqual(deliverable.body);
    }
    await expect(client.cancelTask({ tenant: '', id: done.id, metadata: {} })).rejects.toThrow(TaskNotCancelableError);
    const bob = await server.client('bob', 'org');
    await expect(bob.getTask({ tenant: '', id: done.id, historyLength: undefined })).rejects.toThrow(/not found/i);
  });

  it('streams working, each deliverable version in the order the journal hands it off, then completed', async () => {
    const { harness, server } = await serve();
    const client = await server.client('ada', 'org');
    const { lines, events } = await collect(client.sendMessageStream(send(userMessage({ data: { prd: SHOP_PRD } }))));
    expect(lines.slice(0, 2)).toEqual(['task:submitted', 'status:working']);
    expect(lines.at(-1)).toBe('status:completed');
    const first = events[0]!.payload;
    if (first?.$case !== 'task') throw new Error('expected the task first');
    const artifacts = lines.filter((line) => line.startsWith('artifact:')).map((line) => line.slice(9));
    expect(artifacts).toEqual(await handedOff(harness, first.value.contextId));
    expect(artifacts.length).toBeGreaterThanOrEqual(7);
  });

  it('answers bad input naming the field', async () => {
    const { server } = await serve();
    const client = await server.client('ada', 'org');
    await expect(task(client, { prd: { ...SHOP_PRD, features: [] } })).rejects.toThrow(/data\.prd\.features/);
    await expect(client.sendMessage(send(userMessage({ text: 'build me a shop' })))).rejects.toThrow(/data part/);
  });

  it('is input-required while an escalation waits for the user; a reply resolves it as the resolve route does, then completed', async () => {
    const { harness, server } = await serve();
    const client = await server.client('ada', 'org');
    await task(client, { prd: SHOP_PRD });
    const asked = await task(client, { prd: OFFLINE_PRD });
    expect(stateName(asked.status?.state)).toBe('input-required');
    const { escalations } = (await harness.call('ada', 'GET', `/org/projects/${asked.contextId}/escalations`)).body;
    expect(escalations).toHaveLength(1);
    const question = asked.status?.message?.parts[0]?.content;
    expect(question?.$case === 'text' && question.value).toContain(escalations[0].escalation_id);
    await expect(client.cancelTask({ tenant: '', id: asked.id, metadata: {} })).rejects.toThrow(TaskNotCancelableError);
    const still = await client.getTask({ tenant: '', id: asked.id, historyLength: undefined });
    expect(stateName(still.status?.state)).toBe('input-required');
    await expect(
      client.sendMessage(send(userMessage({ data: { apply_recommendation: true } }, asked.id))),
    ).rejects.toThrow(/data\.decision/);
    const resolved = await client.sendMessage(
      send(userMessage({ data: { decision: 'Go offline-first from now on.', apply_recommendation: true } }, asked.id)),
    );
    if (!('id' in resolved)) throw new Error('expected a task');
    expect(resolved.id).toBe(asked.id);
    expect(stateName(resolved.status?.state)).toBe('completed');
    const after = (await harness.call('ada', 'GET', `/org/projects/${asked.contextId}/escalations`)).body.escalations;
    expect(after[0]).toMatchObject({
      status: 'resolved',
      resolution: { by: 'user', decision: 'Go offline-first from now on.', applied_recommendation: true },
    });
    const storage = (await harness.call('ada', 'GET', '/org/knowledge?tag=storage')).body.nodes;
    expect(storage.map((n: any) => [n.claim.value, n.status]).sort()).toEqual([
      ['offline-first', 'active'],
      ['server-only', 'superseded'],
    ]);
  });

  it('follows a waiting project after a restart: a subscription on the new server sees the reply take it to completed', async () => {
    const first = await serve();
    const before = await first.server.client('ada', 'org');
    await task(before, { prd: SHOP_PRD });
    const asked = await task(before, { prd: OFFLINE_PRD });
    expect(stateName(asked.status?.state)).toBe('input-required');
    await first.harness.stop(false);
    const again = await serve({}, first.harness.dir);
    const client = await again.server.client('ada', 'org');
    const stream = client.resubscribeTask({ tenant: '', id: asked.id });
    const snapshot = await stream.next();
    if (snapshot.done || snapshot.value.payload?.$case !== 'task') throw new Error('expected the task first');
    expect(stateName(snapshot.value.payload.value.status?.state)).toBe('input-required');
    expect(snapshot.value.payload.value.artifacts.map((a) => a.name)).toEqual(asked.artifacts.map((a) => a.name));
    const rest = collect(stream);
    await client.sendMessage(send(userMessage({ text: 'Keep server-only storage.' }, asked.id)));
    const { lines } = await rest;
    expect(lines).toEqual(['status:working', 'status:completed']);
    const { escalations } = (await again.harness.call('ada', 'GET', `/org/projects/${asked.contextId}/escalations`))
      .body;
    expect(escalations[0].resolution).toMatchObject({ decision: 'Keep server-only storage.' });
  });

  it('follows a project under way: subscribed while devops is held back, it sees the rest of the handoffs in journal order, then completed', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let waiting = 0;
    // devops starts no turn until the test lets it: the project stays working meanwhile.
    const held = (workspaceOf: WorkspaceOf, activity: TurnActivity) => ({
      devops: orgBrain('devops', ORG_ROLES.devops, {
        workspaceOf: async (id) => {
          waiting += 1;
          await gate;
          return workspaceOf(id);
        },
        activity,
      }),
    });
    const { harness, server } = await serve({ systems: { org: { brains: held } } });
    const client = await server.client('ada', 'org');
    const started = await client.sendMessage(send(userMessage({ data: { prd: SHOP_PRD } }), true));
    if (!('id' in started)) throw new Error('expected a task');
    await expect.poll(() => waiting, { timeout: 15_000 }).toBeGreaterThan(0);
    const stream = client.resubscribeTask({ tenant: '', id: started.id });
    const snapshot = await stream.next();
    if (snapshot.done || snapshot.value.payload?.$case !== 'task') throw new Error('expected the task first');
    expect(stateName(snapshot.value.payload.value.status?.state)).toBe('working');
    const rest = collect(stream);
    release();
    const { lines } = await rest;
    expect(lines.at(-1)).toBe('status:completed');
    const streamed = lines.filter((line) => line.startsWith('artifact:')).map((line) => line.slice(9));
    const all = await handedOff(harness, started.contextId);
    expect(streamed).toContain('deploy_plan');
    expect(all.slice(all.length - streamed.length)).toEqual(streamed);
    const shown = snapshot.value.payload.value.artifacts.map((a) => a.name);
    expect(new Set([...shown, ...streamed])).toEqual(new Set(all));
    // The stream of the first message saved its last event too (before the server stops).
    const saved = async () =>
      stateName((await client.getTask({ tenant: '', id: started.id, historyLength: undefined })).status?.state);
    await expect.poll(saved, { timeout: 15_000 }).toBe('completed');
  });
});
