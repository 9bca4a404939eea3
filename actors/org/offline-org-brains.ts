import type { OrgAgent } from '../../protocol/org/envelope.ts';
import { ORG_ROLES, orgBrain, type TurnActivity, type WorkspaceOf } from './org-brains.ts';

/** Every org agent's offline brain over the projects' workspaces. */
export function offlineOrgBrains(
  workspaceOf: WorkspaceOf,
  activity?: TurnActivity,
): Record<OrgAgent, ReturnType<typeof orgBrain>> {
  return Object.fromEntries(
    Object.entries(ORG_ROLES).map(([agent, role]) => [agent, orgBrain(agent as OrgAgent, role, workspaceOf, activity)]),
  ) as Record<OrgAgent, ReturnType<typeof orgBrain>>;
}
