import type { AggregatedOutcome, AggregationStrategy } from '../../protocol/runtime/aggregated-outcome.ts';
import type { TerminalStatus } from '../../protocol/runtime/outcome-status.ts';
import { UnknownDelegationError } from './delegation-errors.ts';

/*
 * What a delegation tree holds: its nodes, its fan-outs and their aggregates. The tree's steps
 * (`delegation-tree-steps.ts`) change it; callers get copies.
 */

/** `open` until the node's one terminal outcome. */
export type NodeStatus = 'open' | TerminalStatus;

/** Who ended a node: its target's outcome, the watchdog, a cancellation, or spent retries. */
export type SettledBy = 'target' | 'watchdog' | 'cancellation' | 'retries';

/** One delegation of the tree. The tree owns it: callers get copies (`DelegationTree.node`). */
export interface DelegationNode {
  id: string;
  parent: string | null;
  owner: string;
  target: string;
  /** Absolute ms on the service clock; never later than the parent's. */
  deadline: number;
  delegatedAt: number;
  clamped: boolean;
  data?: unknown;
  status: NodeStatus;
  /** The outcome's result; for a cancelled node, its partial results. */
  result?: unknown;
  /** The confidence its target reported with the outcome. */
  confidence?: number;
  /** The fan-out it belongs to. */
  group?: FanOutGroupRef;
  /** Its rank among the tree's settled nodes (1 for the first to end): the order outcomes arrived in. */
  settleOrder?: number;
  settledAt?: number;
  settledBy?: SettledBy;
  /** The id of the message whose outcome ended it (when its target's outcome named one). */
  settledByMessage?: string;
  /** Its parent was cancelled without cascade: its outcome is recorded but nobody is told. */
  abandoned: boolean;
  /** `throttled` outcomes so far. */
  throttled: number;
  /** When the next retry goes out, while one waits. */
  retryAt: number | null;
  children: string[];
  /** Outcomes that arrived after the terminal one (journaled, ignored). */
  lateOutcomes: number;
}

/** A fan-out a node belongs to: its id and how its outcomes combine. */
export interface FanOutGroupRef {
  id: string;
  strategy: AggregationStrategy;
}

/** A fan-out: its parent, strategy and members (in the order delegated). */
export interface FanOutGroup extends FanOutGroupRef {
  parent: string | null;
  members: string[];
}

export interface DelegationTreeState {
  readonly nodes: Map<string, DelegationNode>;
  readonly groups: Map<string, FanOutGroup>;
  /** Each finished fan-out's combined outcome. */
  readonly aggregates: Map<string, AggregatedOutcome>;
  /** Nodes settled so far (gives each its `settleOrder`). */
  settled: number;
}

export const emptyTree = (): DelegationTreeState => ({
  nodes: new Map(),
  groups: new Map(),
  aggregates: new Map(),
  settled: 0,
});

/** The node `id`, or `UnknownDelegationError`. */
export function nodeOf(tree: DelegationTreeState, id: string): DelegationNode {
  const node = tree.nodes.get(id);
  if (!node) throw new UnknownDelegationError(id);
  return node;
}

/** Every descendant of `id`, parents before their children. */
export function descendantsOf(tree: DelegationTreeState, id: string): DelegationNode[] {
  const found: DelegationNode[] = [];
  const stack = [...nodeOf(tree, id).children].reverse();
  while (stack.length > 0) {
    const node = nodeOf(tree, stack.pop()!);
    found.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return found;
}
