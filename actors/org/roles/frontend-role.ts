import type { ApiContract, Stories } from '../../../protocol/org/deliverables.ts';
import { initiateHandoff } from '../handoff-steps.ts';
import type { OrgRole } from '../org-role.ts';
import { deliverableNodeId, recordDeliverable } from '../record-deliverable.ts';

/**
 * `frontend`: builds against an accepted API contract (a screen per story, calling its
 * endpoints) and hands the UI plan to sdte; it rejects a contract that lacks an endpoint a current
 * story needs (the validator does) and accepts growth's flags.
 */
export const frontendRole: OrgRole = {
  async onAccepted(turn, receipt) {
    if (receipt.type !== 'api_contract') return;
    const stories = await turn.ws.deliverable<Stories>('stories');
    if (!stories) return;
    const version = receipt.version ?? 1;
    const body = await turn.produce.uiPlan(
      { stories: stories.body, contract: receipt.body as ApiContract, contractVersion: version },
      turn.asking(),
    );
    const ui = await turn.ws.publish('frontend', 'ui_plan', body);
    await recordDeliverable(turn, ui, ['frontend'], [deliverableNodeId(turn.ws.projectId, 'api_contract', version)]);
    await initiateHandoff(turn, 'sdte', ui);
  },
};
