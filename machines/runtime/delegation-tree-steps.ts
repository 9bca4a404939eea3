import type { BackoffPolicy } from '../../actors/runtime/backoff.ts';
import { senderRetryDelay } from '../../actors/runtime/sender-retry.ts';
import type {
  CancelledRecord,
  DelegatedRecord,
  DelegationRecord,
  OutcomeRecord,
  TimedOutRecord,
} from '../../protocol/runtime/delegation-record.ts';
import type { OutcomeStatus, TerminalStatus } from '../../protocol/runtime/outcome-status.ts';
import { DelegationEndedError } from './delegation-errors.ts';
import {
  descendantsOf,
  nodeOf,
  type DelegationNode,
  type DelegationTreeState,
  type FanOutGroupRef,
  type SettledBy,
} from './delegation-tree-state.ts';

/*
 * The decisions of a delegation tree, without I/O: `plan*` turns an input (a delegation, an
 * outcome, a deadline, a cancellation) into the record to journal, and `applyDelegationRecord`
 * applies a record to the tree. The service applies each record as it journals it, and replays
 * the same records through the same function when it reopens, so both give the same tree.
 */

/** A request to delegate work: `timeoutMs` from now, clamped to the parent's deadline. */
export interface DelegationRequest {
  id: string;
  parent?: string | null;
  owner: string;
  target: string;
  timeoutMs?: number;
  data?: unknown;
}

/** An outcome as a target reports it. */
export interface ReportedOutcome {
  status: OutcomeStatus;
  result?: unknown;
  /** Self-assessed, 0..1 (spec 002): what a fan-out's aggregated confidence averages. */
  confidence?: number;
  /**
   * The id of the message that carried it. Reported again after it ended the node (the message
   * redelivered after a crash, before its receiver finished reacting), it is a repeat, not late.
   */
  messageId?: string;
}

/** How `throttled` outcomes are retried (through `senderRetryDelay`): backoff delays, at most `maxRetries`, inside the deadline. */
export interface RetryRule {
  policy: BackoffPolicy;
  maxRetries: number;
  random: () => number;
}

/** What applying a record changed. */
export interface Applied {
  /** Nodes that reached their terminal outcome, in order. */
  settled: DelegationNode[];
  /** Children left to run on by a cancellation without cascade. */
  abandoned: DelegationNode[];
  /** The input arrived after its node had ended. */
  late: boolean;
}

/** The record of a new delegation, or undefined when `request.id` is already in the tree (a duplicate). */
export function planDelegation(
  tree: DelegationTreeState,
  request: DelegationRequest,
  now: number,
  defaultTimeoutMs: number,
  group?: FanOutGroupRef,
): DelegatedRecord | undefined {
  if (tree.nodes.has(request.id)) return undefined;
  const timeoutMs = request.timeoutMs ?? defaultTimeoutMs;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new RangeError(`Delegation ${request.id}: timeoutMs must be a positive number of ms, got ${timeoutMs}.`);
  }
  const parent = request.parent == null ? undefined : nodeOf(tree, request.parent);
  if (parent && parent.status !== 'open') throw new DelegationEndedError(parent.id, parent.status);
  const requested = now + timeoutMs;
  const deadline = parent ? Math.min(requested, parent.deadline) : requested;
  const record: DelegatedRecord = {
    kind: 'delegated',
    id: request.id,
    parent: parent?.id ?? null,
    owner: request.owner,
    target: request.target,
    deadline,
    clamped: deadline < requested,
    at: now,
  };
  if (request.data !== undefined) record.data = request.data;
  if (group) record.group = { id: group.id, strategy: group.strategy };
  return record;
}

/** The record of an outcome; for `throttled`, when its retry goes out (null when none fits). */
export function planOutcome(
  tree: DelegationTreeState,
  id: string,
  outcome: ReportedOutcome,
  now: number,
  retry: RetryRule,
): OutcomeRecord {
  const node = nodeOf(tree, id);
  const record: OutcomeRecord = { kind: 'outcome', id, status: outcome.status, at: now, late: node.status !== 'open' };
  if (outcome.result !== undefined) record.result = outcome.result;
  if (outcome.messageId !== undefined) record.message = outcome.messageId;
  if (outcome.confidence !== undefined) {
    if (!(outcome.confidence >= 0 && outcome.confidence <= 1)) {
      throw new RangeError(`Outcome of ${id}: confidence must be within 0..1, got ${outcome.confidence}.`);
    }
    record.confidence = outcome.confidence;
  }
  if (outcome.status === 'throttled' && !record.late) {
    const delay = senderRetryDelay({ ...retry, attempt: node.throttled + 1, now, deadline: node.deadline });
    record.retryAt = delay === undefined ? null : now + delay;
  }
  return record;
}

/** The record of a watchdog that fired, or undefined when the node already ended. */
export function planTimeout(tree: DelegationTreeState, id: string, now: number): TimedOutRecord | undefined {
  return nodeOf(tree, id).status === 'open' ? { kind: 'timed_out', id, at: now } : undefined;
}

/**
 * The open nodes a cancellation of `id` ends: the node itself, and with `cascade` every open
 * descendant (also under a child that already ended: its own children may still run). Nodes
 * that ended before keep their outcome (cancellation is best-effort, spec 002).
 */
export function cancellationReach(tree: DelegationTreeState, id: string, cascade: boolean): DelegationNode[] {
  const node = nodeOf(tree, id);
  const reach = cascade ? [node, ...descendantsOf(tree, id)] : [node];
  return reach.filter((candidate) => candidate.status === 'open');
}

/** The record of a cancellation, with the partial results of each node it ends. */
export function planCancellation(
  tree: DelegationTreeState,
  id: string,
  cancellation: { reason: string; cascade: boolean },
  now: number,
  partialsOf: (node: DelegationNode) => unknown,
): CancelledRecord {
  const partials: Record<string, unknown> = {};
  for (const node of cancellationReach(tree, id, cancellation.cascade)) {
    const partial = partialsOf(node);
    if (partial !== undefined) partials[node.id] = partial;
  }
  return { kind: 'cancelled', id, reason: cancellation.reason, cascade: cancellation.cascade, at: now, partials };
}

function settle(
  tree: DelegationTreeState,
  node: DelegationNode,
  status: TerminalStatus,
  by: SettledBy,
  at: number,
  result: unknown,
): DelegationNode {
  node.status = status;
  node.settledBy = by;
  node.settledAt = at;
  node.retryAt = null;
  node.settleOrder = ++tree.settled;
  if (result !== undefined) node.result = result;
  return node;
}

/** Applies one journaled record to the tree (in place) and says what it changed. */
export function applyDelegationRecord(tree: DelegationTreeState, record: DelegationRecord): Applied {
  const applied: Applied = { settled: [], abandoned: [], late: false };
  switch (record.kind) {
    case 'delegated': {
      if (tree.nodes.has(record.id)) throw new Error(`Delegation ${record.id} is journaled twice.`);
      const parent = record.parent === null ? undefined : nodeOf(tree, record.parent);
      const node: DelegationNode = {
        id: record.id,
        parent: record.parent,
        owner: record.owner,
        target: record.target,
        deadline: record.deadline,
        delegatedAt: record.at,
        clamped: record.clamped,
        status: 'open',
        abandoned: false,
        throttled: 0,
        retryAt: null,
        children: [],
        lateOutcomes: 0,
      };
      if (record.data !== undefined) node.data = record.data;
      tree.nodes.set(record.id, node);
      parent?.children.push(record.id);
      if (record.group) {
        node.group = record.group;
        const group = tree.groups.get(record.group.id) ?? { ...record.group, parent: record.parent, members: [] };
        group.members.push(record.id);
        tree.groups.set(record.group.id, group);
      }
      return applied;
    }
    case 'outcome': {
      const node = nodeOf(tree, record.id);
      if (node.status !== 'open') {
        node.lateOutcomes += 1;
        applied.late = true;
      } else if (record.status !== 'throttled') {
        if (record.confidence !== undefined) node.confidence = record.confidence;
        if (record.message !== undefined) node.settledByMessage = record.message;
        applied.settled.push(settle(tree, node, record.status, 'target', record.at, record.result));
      } else {
        node.throttled += 1;
        node.retryAt = record.retryAt ?? null;
        if (node.retryAt === null)
          applied.settled.push(settle(tree, node, 'failed', 'retries', record.at, record.result));
      }
      return applied;
    }
    case 'timed_out': {
      const node = nodeOf(tree, record.id);
      if (node.status === 'open') applied.settled.push(settle(tree, node, 'timeout', 'watchdog', record.at, undefined));
      else applied.late = true;
      return applied;
    }
    case 'cancelled': {
      const node = nodeOf(tree, record.id);
      applied.late = node.status !== 'open';
      const reach = cancellationReach(tree, record.id, record.cascade);
      if (!record.cascade && !applied.late) {
        for (const childId of node.children) {
          const child = nodeOf(tree, childId);
          if (child.status !== 'open') continue;
          child.abandoned = true;
          applied.abandoned.push(child);
        }
      }
      for (const reached of reach) {
        applied.settled.push(
          settle(tree, reached, 'cancelled', 'cancellation', record.at, record.partials[reached.id]),
        );
      }
      return applied;
    }
    case 'retried': {
      nodeOf(tree, record.id).retryAt = null;
      return applied;
    }
    case 'aggregated': {
      tree.aggregates.set(record.group, record.aggregate);
      return applied;
    }
  }
}
