import type { OrgAgent } from '../../protocol/org/envelope.ts';
import { orgBrains } from './org-brains-for.ts';
import type { orgBrain, TurnActivity, WorkspaceOf } from './org-brains.ts';

/** Every org agent's offline brain (deliverables by the offline rules) over the projects' workspaces. */
export function offlineOrgBrains(
  workspaceOf: WorkspaceOf,
  activity?: TurnActivity,
): Record<OrgAgent, ReturnType<typeof orgBrain>> {
  return orgBrains({ workspaceOf, activity });
}
