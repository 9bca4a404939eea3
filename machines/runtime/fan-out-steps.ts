import type { AggregationStrategy } from '../../protocol/runtime/aggregated-outcome.ts';
import type { AggregatedRecord, DelegatedRecord } from '../../protocol/runtime/delegation-record.ts';
import { ConflictError } from '../../protocol/runtime/runtime-error.ts';
import { aggregateOutcomes, cancelsSiblings } from './aggregate-outcomes.ts';
import type { DelegationNode, DelegationTreeState } from './delegation-tree-state.ts';
import { planDelegation } from './delegation-tree-steps.ts';

/*
 * Fan-outs of a delegation tree (spec 002, "Parallel Execution & Aggregation"), without I/O:
 * the records that start one, the siblings a `first_success` winner cancels, and the aggregate
 * journaled once every child has ended.
 */

/** Work delegated to several targets at once, combined by `strategy`. */
export interface FanOutRequest {
  /** The delegation whose target fans out (none for a fan-out at the root). */
  parent?: string | null;
  owner: string;
  strategy: AggregationStrategy;
  children: { id: string; target: string; timeoutMs?: number; data?: unknown }[];
  /** The fan-out's id (default `fan-out/<first child id>`). */
  group?: string;
}

/** The records of a fan-out's children, all or none (a child id already in the tree refuses it). */
export function planFanOut(
  tree: DelegationTreeState,
  request: FanOutRequest,
  now: number,
  defaultTimeoutMs: number,
): DelegatedRecord[] {
  const [first] = request.children;
  if (!first) throw new RangeError('A fan-out needs at least one child: delegate to one target or more.');
  const group = { id: request.group ?? `fan-out/${first.id}`, strategy: request.strategy };
  if (tree.groups.has(group.id)) {
    throw new ConflictError('fan_out_exists', `Fan-out ${group.id} already exists: give the new one another group id.`);
  }
  const ids = new Set<string>();
  for (const { id } of request.children) {
    if (tree.nodes.has(id) || ids.has(id)) {
      throw new ConflictError(
        'delegation_exists',
        `Delegation ${id} already exists: give each child of a fan-out a new id.`,
      );
    }
    ids.add(id);
  }
  return request.children.map((child) =>
    planDelegation(
      tree,
      { ...child, parent: request.parent ?? null, owner: request.owner },
      now,
      defaultTimeoutMs,
      group,
    )!,
  );
}

/** The other members of the node's fan-out; under `first_success` a success cancels those still open. */
export function siblingsToCancel(tree: DelegationTreeState, node: DelegationNode): DelegationNode[] {
  if (!node.group || !cancelsSiblings(node.group.strategy, node)) return [];
  const group = tree.groups.get(node.group.id)!;
  return group.members.map((id) => tree.nodes.get(id)!).filter((member) => member !== node && member.status === 'open');
}

/** The aggregate of fan-out `groupId` once all its children ended (in the order they ended), once. */
export function planAggregation(tree: DelegationTreeState, groupId: string, now: number): AggregatedRecord | undefined {
  const group = tree.groups.get(groupId);
  if (!group || tree.aggregates.has(groupId)) return undefined;
  const members = group.members.map((id) => tree.nodes.get(id)!);
  if (members.some((member) => member.status === 'open')) return undefined;
  members.sort((a, b) => a.settleOrder! - b.settleOrder!);
  const aggregate = aggregateOutcomes(
    group.strategy,
    members.map((member) => ({
      message_id: member.id,
      status: member.status as Exclude<typeof member.status, 'open'>,
      confidence: member.confidence ?? 0,
      specialist: member.target,
    })),
  );
  return { kind: 'aggregated', group: groupId, at: now, aggregate };
}

/** Members of a first_success fan-out that won (the earliest success), for repairs after a restart. */
export function winnerOf(tree: DelegationTreeState, groupId: string): DelegationNode | undefined {
  const group = tree.groups.get(groupId);
  if (!group || group.strategy !== 'first_success') return undefined;
  return group.members
    .map((id) => tree.nodes.get(id)!)
    .filter((member) => member.status === 'success')
    .sort((a, b) => a.settleOrder! - b.settleOrder!)[0];
}
