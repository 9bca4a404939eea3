import type { Stories } from '../../../protocol/org/deliverables.ts';
import { initiateHandoff } from '../handoff-steps.ts';
import type { OrgRole } from '../org-role.ts';
import { deliverableNodeId, recordDeliverable } from '../record-deliverable.ts';

/**
 * `sdte`: writes a test plan whose cases trace to every acceptance criterion of the stories it
 * accepts and hands it to devops over the Quality Loop; it verifies the UI and deploy plans handed
 * to it (the deploy gate must run every case).
 */
export const sdteRole: OrgRole = {
  async onAccepted(turn, receipt) {
    if (receipt.type !== 'stories') return;
    const body = await turn.produce.testPlan({ stories: receipt.body as Stories }, turn.asking());
    const plan = await turn.ws.publish('sdte', 'test_plan', body);
    await recordDeliverable(
      turn,
      plan,
      ['quality'],
      [deliverableNodeId(turn.ws.projectId, 'stories', receipt.version ?? 1)],
    );
    await initiateHandoff(turn, 'devops', plan, { checks: ['every acceptance criterion has a case'] });
  },
};
