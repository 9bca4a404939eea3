import type { Stories } from '../../../protocol/org/deliverables.ts';
import { initiateHandoff } from '../handoff-steps.ts';
import type { OrgRole } from '../org-role.ts';
import { deliverableNodeId, recordDeliverable } from '../record-deliverable.ts';

/** `growth`: proposes a flag and an experiment per story and hands them to frontend on the Growth Channel. */
export const growthRole: OrgRole = {
  async onAccepted(turn, receipt) {
    if (receipt.type !== 'stories') return;
    const body = await turn.produce.experiments({ stories: receipt.body as Stories }, turn.asking());
    const experiments = await turn.ws.publish('growth', 'experiments', body);
    await recordDeliverable(
      turn,
      experiments,
      ['growth'],
      [deliverableNodeId(turn.ws.projectId, 'stories', receipt.version ?? 1)],
    );
    await initiateHandoff(turn, 'frontend', experiments);
  },
};
