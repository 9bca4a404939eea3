import { describe, expect, it } from 'vitest';
import { amendmentTask } from '../../../../actors/org/project-tasks.ts';
import { parseLocation } from '../../../../actors/org/workspace.ts';
import type { DeliverableType } from '../../../../protocol/org/deliverables.ts';
import { HandoffNotificationSchema } from '../../../../protocol/org/handoff-messages.ts';
import { producedArtifacts, projectTaskView, publishedOf } from '../../../../server/org/org-a2a-view.ts';
import { SHOP_PRD, startOrgProject } from '../../../support/org/org-harness.ts';

/** A project opened, done, then amended (its contract rejected once and published again). */
async function amendedProject() {
  const project = startOrgProject();
  await project.open();
  const features = [...SHOP_PRD.features, { id: 'wishlist', title: 'Saved wishlist', acceptance_criteria: ['Save'] }];
  await project.ws.put('user', 'prd', { version: 2, prd: { ...SHOP_PRD, features } });
  project.send([
    amendmentTask({ projectId: project.projectId, sprintId: 'sprint-1', at: project.clock.now(), prdVersion: 2 }),
  ]);
  await project.settle();
  return project;
}

describe('the org project as an A2A task', () => {
  it('replays every deliverable version handed off, once each, in journal order, and views the latest of each', async () => {
    const project = await amendedProject();
    const messages = await project.messages();
    // Read independently: each handoff notification's location, first time seen, and its message.
    const firsts = new Map<string, string>();
    for (const m of messages) {
      const notice = HandoffNotificationSchema.safeParse('content' in m.payload ? m.payload.content : undefined);
      if (notice.success && !firsts.has(notice.data.location)) firsts.set(notice.data.location, m.message_id);
    }
    const locations = [...firsts.keys()].map((location) => parseLocation(location)!);
    expect(publishedOf(await project.records())).toEqual(
      [...firsts].map(([location, recordId]) => ({ ...parseLocation(location)!, recordId })),
    );
    const contracts = locations.filter((l) => l.type === 'api_contract').map((l) => l.version);
    expect(contracts.length).toBeGreaterThanOrEqual(2);
    const produced = await producedArtifacts(project.ws, await project.records());
    expect(produced.map((a) => a.name)).toEqual(locations.map((l) => l.type));
    // Each named by the journal record that first handed it off, so a follower matches by record.
    expect(produced.map((a) => a.recordId)).toEqual([...firsts.values()]);
    for (const [i, { type, version }] of locations.entries())
      expect(produced[i]!.data).toEqual((await project.ws.deliverable(type as DeliverableType, version))!.body);
    // The task's view holds one artifact per type: its latest version.
    const view = projectTaskView('done', [], produced);
    expect(view.state).toBe('completed');
    expect(view.artifacts.map((a) => a.name)).toEqual([...new Set(locations.map((l) => l.type))]);
    const contract = view.artifacts.find((a) => a.name === 'api_contract')!;
    expect(contract.data).toEqual((await project.ws.deliverable('api_contract'))!.body);
    project.actor.stop();
  });

  it('is input-required while an escalation waits for the user, naming it; working otherwise', () => {
    const escalation = {
      escalation_id: 'e-1',
      project_id: 'p-1',
      from: 'frontend' as const,
      payload: {
        conflict_type: 'quality' as const,
        agents_involved: ['frontend' as const],
        positions: {},
        impact_if_unresolved: 'The screens cannot be built.',
        recommended_resolution: 'Publish the contract again.',
        deadline_for_resolution: '2026-03-03T09:00:00Z',
      },
      created_at: '2026-03-02T09:00:00Z',
    };
    const waiting = projectTaskView('waiting_for_user', [{ ...escalation, status: 'awaiting_user' }], []);
    expect(waiting.state).toBe('input-required');
    expect(waiting.message).toContain('e-1');
    expect(waiting.message).toContain('Publish the contract again.');
    const resolved = projectTaskView('waiting_for_user', [{ ...escalation, status: 'resolved' }], []);
    expect(resolved.message).not.toContain('e-1');
    expect(projectTaskView('working', [], []).state).toBe('working');
  });
});
