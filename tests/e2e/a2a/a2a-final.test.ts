import { describe, expect, it } from 'vitest';
import { SHOP_PRD } from '../../support/org/org-harness.ts';
import { collect, send, stateName, userMessage } from '../../support/a2a/a2a-server.ts';
import { OFFLINE_PRD } from '../../support/a2a/offline-prd.ts';
import { servedRuntimes } from '../../support/a2a/served-runtimes.ts';
import { ORG_ROLES, orgBrain, type TurnActivity, type WorkspaceOf } from '../../../actors/org/org-brains.ts';

const { serve, afterTest } = servedRuntimes();

/** The org served with its product agent held while `hold()` is in force (an amended project stays working). */
async function heldOrg() {
  let held = Promise.resolve();
  let release = () => undefined as void;
  const brains = (workspaceOf: WorkspaceOf, activity: TurnActivity) => ({
    product: orgBrain('product', ORG_ROLES.product, {
      workspaceOf: async (id) => {
        await held;
        return workspaceOf(id);
      },
      activity,
    }),
  });
  const served = await serve({ systems: { org: { brains } } });
  afterTest(() => release());
  return {
    ...served,
    client: await served.server.client('ada', 'org'),
    hold: () => void (held = new Promise<void>((resolve) => (release = resolve))),
    release: () => release(),
  };
}

/** Amends the project's PRD (a new feature) and checks the HTTP API shows it working again. */
async function amend(harness: Awaited<ReturnType<typeof heldOrg>>['harness'], projectId: string) {
  const amendment = { features: [{ id: 'wishlist', title: 'Saved wishlist', acceptance_criteria: ['Save an item'] }] };
  const amended = await harness.call('ada', 'PATCH', `/org/projects/${projectId}/prd`, amendment);
  expect(amended.status).toBe(202);
  expect((await harness.call('ada', 'GET', `/org/projects/${projectId}`)).body.status).toBe('working');
}

describe('a final A2A task stays final', () => {
  it('reads a completed org project amended later as completed, with its artifacts; the amendment shows over HTTP', async () => {
    const { harness, client, hold, release } = await heldOrg();
    const done = await client.sendMessage(send(userMessage({ data: { prd: SHOP_PRD } })));
    if (!('id' in done)) throw new Error('expected a task');
    expect(stateName(done.status?.state)).toBe('completed');
    hold();
    await amend(harness, done.contextId);
    // The task does not work again: it answers the state and artifacts it ended with.
    const task = await client.getTask({ tenant: '', id: done.id, historyLength: undefined });
    expect(stateName(task.status?.state)).toBe('completed');
    expect(task.artifacts).toEqual(done.artifacts);
    await expect(collect(client.resubscribeTask({ tenant: '', id: done.id }))).rejects.toThrow(/completed.*GetTask/);
    await expect(client.sendMessage(send(userMessage({ text: 'ok' }, done.id)))).rejects.toThrow(/completed/);
    release();
  });

  it('keeps the completed state a subscription saw reached, though nothing read the task before the project was amended', async () => {
    const { harness, client, hold, release } = await heldOrg();
    await client.sendMessage(send(userMessage({ data: { prd: SHOP_PRD } })));
    const asked = await client.sendMessage(send(userMessage({ data: { prd: OFFLINE_PRD } })));
    if (!('id' in asked)) throw new Error('expected a task');
    expect(stateName(asked.status?.state)).toBe('input-required');
    const stream = client.resubscribeTask({ tenant: '', id: asked.id });
    const snapshot = await stream.next();
    if (snapshot.done || snapshot.value.payload?.$case !== 'task') throw new Error('expected the task first');
    const rest = collect(stream);
    // Resolved over HTTP, not through A2A: only the subscription sees the project complete.
    const { escalations } = (await harness.call('ada', 'GET', `/org/projects/${asked.contextId}/escalations`)).body;
    const decision = { decision: 'Go offline-first from now on.', apply_recommendation: true };
    const path = `/org/projects/${asked.contextId}/escalations/${escalations[0].escalation_id}/resolve`;
    expect((await harness.call('ada', 'POST', path, decision)).status).toBe(200);
    expect((await rest).lines.at(-1)).toBe('status:completed');
    hold();
    await amend(harness, asked.contextId);
    const task = await client.getTask({ tenant: '', id: asked.id, historyLength: undefined });
    expect(stateName(task.status?.state)).toBe('completed');
    release();
  });
});
