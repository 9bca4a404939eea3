import { describe, expect, it } from 'vitest';
import { SHOP_PRD } from '../../support/org/org-harness.ts';
import { collect, send, stateName, userMessage } from '../../support/a2a/a2a-server.ts';
import { servedRuntimes } from '../../support/a2a/served-runtimes.ts';
import { ORG_ROLES, orgBrain, type TurnActivity, type WorkspaceOf } from '../../../actors/org/org-brains.ts';

const { serve, afterTest } = servedRuntimes();

describe('a final A2A task stays final', () => {
  it('reads a completed org project amended later as completed, with its artifacts; the amendment shows over HTTP', async () => {
    // product takes no turn while `held` is pending: an amended project stays working meanwhile.
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
    const { harness, server } = await serve({ systems: { org: { brains } } });
    afterTest(() => release());
    const client = await server.client('ada', 'org');
    const done = await client.sendMessage(send(userMessage({ data: { prd: SHOP_PRD } })));
    if (!('id' in done)) throw new Error('expected a task');
    expect(stateName(done.status?.state)).toBe('completed');
    held = new Promise<void>((resolve) => (release = resolve));
    const amend = { features: [{ id: 'wishlist', title: 'Saved wishlist', acceptance_criteria: ['Save an item'] }] };
    const amended = await harness.call('ada', 'PATCH', `/org/projects/${done.contextId}/prd`, amend);
    expect(amended.status).toBe(202);
    // The project works again: the HTTP API says so.
    const project = (await harness.call('ada', 'GET', `/org/projects/${done.contextId}`)).body;
    expect(project.status).toBe('working');
    // The task does not: it answers the state and artifacts it ended with.
    const task = await client.getTask({ tenant: '', id: done.id, historyLength: undefined });
    expect(stateName(task.status?.state)).toBe('completed');
    expect(task.artifacts).toEqual(done.artifacts);
    await expect(collect(client.resubscribeTask({ tenant: '', id: done.id }))).rejects.toThrow(/completed.*GetTask/);
    await expect(client.sendMessage(send(userMessage({ text: 'ok' }, done.id)))).rejects.toThrow(/completed/);
    release();
  });
});
