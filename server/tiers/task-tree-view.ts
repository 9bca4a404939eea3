import type { DelegationNodeView } from '../../machines/runtime/delegation-tree.ts';
import { nextDelegationStatus } from '../../machines/tiers/delegation.ts';
import type { DelegationData } from '../../machines/tiers/tier-steps.ts';
import type { DelegationStatus } from '../../protocol/tiers/delegation-transitions.ts';
import type { DelegationView } from './tiers-service-api.ts';

/**
 * A delegation's status, computed by the `delegation` statechart from what happened to it:
 * journaled (`pending`), delivered to its target (`started`), then its terminal status.
 */
export function delegationStatusOf(node: DelegationNodeView, delivered: boolean): DelegationStatus {
  let status: DelegationStatus = 'pending';
  if (delivered) status = nextDelegationStatus(status, 'delegation.started') ?? status;
  if (node.status !== 'open') status = nextDelegationStatus(status, `delegation.${node.status}`) ?? status;
  return status;
}

/** The task's delegations as issue 12's tree: roots first, each with its children in the order delegated. */
export function treeView(nodes: readonly DelegationNodeView[], delivered: ReadonlySet<string>): DelegationView[] {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const viewOf = (node: DelegationNodeView): DelegationView => {
    const data = node.data as DelegationData | undefined;
    return {
      message_id: node.id,
      source_tier: node.owner,
      target_tier: node.target,
      specialist: data?.specialist ?? null,
      status: delegationStatusOf(node, delivered.has(node.id)),
      children: node.children.map((id) => viewOf(byId.get(id)!)),
    };
  };
  return nodes.filter((node) => node.parent === null).map(viewOf);
}
