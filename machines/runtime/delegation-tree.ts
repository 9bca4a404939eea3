import type { BackoffPolicy } from '../../actors/runtime/backoff.ts';
import { realClock, type ServiceClock } from '../../actors/runtime/clock.ts';
import { DeadlineTimers } from '../../actors/runtime/deadline-timers.ts';
import type { Journal } from '../../actors/runtime/journal.ts';
import { parseJournalRecord } from '../../actors/runtime/parse-journal-record.ts';
import type { AggregatedOutcome } from '../../protocol/runtime/aggregated-outcome.ts';
import { DelegationRecordSchema, type DelegationRecord } from '../../protocol/runtime/delegation-record.ts';
import { DelegationJournalError } from './delegation-errors.ts';
import { emptyTree, type DelegationNode, type FanOutGroup } from './delegation-tree-state.ts';
import {
  applyDelegationRecord,
  planCancellation,
  planDelegation,
  planOutcome,
  planTimeout,
  type Applied,
  type DelegationRequest,
  type ReportedOutcome,
  type RetryRule,
} from './delegation-tree-steps.ts';
import { planAggregation, planFanOut, siblingsToCancel, winnerOf, type FanOutRequest } from './fan-out-steps.ts';

/** A copy of a node of the tree, as callers and hooks see it. */
export type DelegationNodeView = Readonly<DelegationNode> & { readonly children: readonly string[] };

/** Options of {@link openDelegationTree}. */
export interface DelegationTreeOptions {
  journal: Journal<DelegationRecord>;
  /** The journal partition of this tree (one request and everything it spawned, or a run's trees). */
  partition: string;
  /** Watchdogs and retries run on it (realClock by default; a SimulatedClock in tests). */
  clock?: ServiceClock;
  /** The timeout of a delegation that names none (60 s), still clamped to its parent's deadline. */
  defaultTimeoutMs?: number;
  /** Retries after `throttled` (002: up to 3, exponential backoff; 1 s doubling to 10 s, jittered). */
  retry?: { policy?: BackoffPolicy; maxRetries?: number };
  /** The backoff's random draw (Math.random); seed it in tests. */
  random?: () => number;
  /**
   * Called once per node a cancellation ends, at that moment: stop the node's work and return its
   * partial results, which the node reports as its `cancelled` outcome (and the journal keeps).
   */
  partialResults?: (node: DelegationNodeView) => unknown;
  /** Told each node's terminal outcome once it is journaled (not for abandoned nodes, whose results are ignored). */
  onSettled?: (node: DelegationNodeView) => void;
  /**
   * Told a fan-out's aggregate once its last child ended, while its parent is still open (its
   * target reports it up); under `first_success` the first success cancels the others first.
   */
  onAggregated?: (group: Readonly<FanOutGroup>, aggregate: AggregatedOutcome) => void;
  /** Told to send retry `attempt` of a throttled node (a new message id, same correlation), once journaled. */
  onRetry?: (node: DelegationNodeView, attempt: number) => void;
  /** Told what failed without a caller to tell: a watchdog's journal write, a throwing hook (console.error). */
  onError?: (error: unknown) => void;
}

/** What became of a reported outcome. */
export interface OutcomeReceipt {
  /** The outcome came after the node had ended: journaled, nothing changed. */
  late: boolean;
  /**
   * The message that ended the node, reported again (redelivered after a crash): neither late nor
   * journaled again; the receiver finishes its reaction to it, which must be idempotent.
   */
  repeated: boolean;
  node: DelegationNodeView;
}

/** What a cancellation ended (the ids of nodes it cancelled) and left to run on (abandoned). */
export interface CancellationReceipt {
  late: boolean;
  cancelled: string[];
  abandoned: string[];
}

/** A journaled delegation tree with a watchdog per open delegation (see {@link openDelegationTree}). */
export interface DelegationTree {
  /** Starts a delegation (a duplicate id returns the existing node); resolves once journaled. */
  delegate(request: DelegationRequest): Promise<DelegationNodeView>;
  /** Records a target's outcome; after the node's terminal one it is journaled as late and ignored (the message that ended it, again, is `repeated`). */
  report(id: string, outcome: ReportedOutcome): Promise<OutcomeReceipt>;
  /** Cancels a delegation, and with `cascade` every open descendant; without it, its children are abandoned. */
  cancel(id: string, cancellation: { reason: string; cascade: boolean }): Promise<CancellationReceipt>;
  /** Delegates to several targets at once; their outcomes combine by `strategy` (spec 002) into `aggregate(group)`. */
  fanOut(request: FanOutRequest): Promise<DelegationNodeView[]>;
  /** The combined outcome of a fan-out, once all its children ended. */
  aggregate(group: string): AggregatedOutcome | undefined;
  node(id: string): DelegationNodeView | undefined;
  /** Every node, in the order delegated. */
  nodes(): DelegationNodeView[];
  /** Resolves once every record taken so far is journaled and its hooks have run. */
  idle(): Promise<void>;
  /** Stops every timer and takes nothing more (the journal stays open: it is the caller's). */
  close(): Promise<void>;
}

const view = (node: DelegationNode): DelegationNodeView => Object.freeze({ ...node, children: [...node.children] });
const noop = (): void => {};

/**
 * Opens the delegation tree journaled in `partition`: replays its records, re-arms a watchdog for
 * every open delegation from its absolute deadline (XState does not re-arm `after` timers on a
 * restored snapshot, statelyai/xstate#5331) and times out at once each one whose deadline passed
 * while the process was down. A child's deadline never exceeds its parent's; each node gets
 * exactly one terminal outcome (spec 002's statuses; `throttled` is retried with backoff inside
 * the deadline, and fails the node once no retry fits); `fanOut` delegates to several targets
 * at once and journals their aggregate (spec 002's strategies) once the last one ends. Every
 * input is journaled before the hooks hear of it, so what a hook saw survives `kill -9`; after a
 * restart, what was journaled before it is not told again: read `nodes()` and `aggregate()`.
 *
 * @example
 * const tree = await openDelegationTree({ journal, partition: 'delegations/msg-001', clock, onSettled });
 * await tree.delegate({ id: 'msg-001', owner: 'ARCHITECT', target: 'DISPATCHER', timeoutMs: 60_000 });
 * await tree.delegate({ id: 'msg-002', parent: 'msg-001', owner: 'DISPATCHER', target: 'FLEET', timeoutMs: 30_000 });
 * await tree.cancel('msg-001', { reason: 'strategy revised', cascade: true }); // both end `cancelled`
 */
export async function openDelegationTree(options: DelegationTreeOptions): Promise<DelegationTree> {
  const { journal, partition, clock = realClock, defaultTimeoutMs = 60_000 } = options;
  const onError = options.onError ?? ((error: unknown) => console.error(error));
  const retryRule: RetryRule = {
    policy: options.retry?.policy ?? { baseMs: 1_000, maxMs: 10_000 },
    maxRetries: options.retry?.maxRetries ?? 3,
    random: options.random ?? Math.random,
  };
  const tree = emptyTree();
  for (const entry of await journal.read(partition)) {
    applyDelegationRecord(tree, parseJournalRecord(DelegationRecordSchema, entry, partition, 'delegation record'));
  }

  const watchdogs = new DeadlineTimers<string>(clock);
  const retries = new DeadlineTimers<string>(clock);
  let tail: Promise<unknown> = Promise.resolve();
  let broken: DelegationJournalError | undefined;
  let closed = false;

  const guarded = (hook: () => void): void => {
    try {
      hook();
    } catch (error) {
      onError(error);
    }
  };

  /** Applies `record` now (so the next input sees it), journals it, then tells the hooks. */
  const commit = (record: DelegationRecord, after?: () => void): Promise<Applied> => {
    if (broken) return Promise.reject(broken);
    if (closed) return Promise.reject(new Error(`The delegation tree ${partition} is closed; reopen it to go on.`));
    const applied = applyDelegationRecord(tree, record);
    armFor(record, applied);
    const settled = applied.settled.filter((node) => !node.abandoned).map(view);
    const appended = journal.append(partition, record);
    const done = Promise.all([tail, appended]).then(
      () => {
        for (const node of settled) guarded(() => options.onSettled?.(node));
        if (after) guarded(after);
        return applied;
      },
      (error: unknown) => {
        broken ??= error instanceof DelegationJournalError ? error : new DelegationJournalError(partition, error);
        watchdogs.clear();
        retries.clear();
        throw broken;
      },
    );
    tail = done.then(noop, noop);
    for (const node of applied.settled) if (node.group) settleFanOut(node.group.id);
    return done;
  };

  const partialsOf = (node: DelegationNode): unknown => options.partialResults?.(view(node));

  /** A fan-out's follow-ups: the first success cancels the open rest, the last child's end aggregates. */
  function settleFanOut(groupId: string): void {
    const winner = winnerOf(tree, groupId);
    // Stryker disable next-line ArrayDeclaration: a stand-in element is not an open node, so the check below skips it as the empty list would.
    for (const sibling of winner ? siblingsToCancel(tree, winner) : []) {
      // Cancelling one sibling settles the fan-out again, which may already have ended the next.
      if (sibling.status !== 'open') continue;
      const reason = `first_success: ${winner!.id} succeeded first`;
      commit(planCancellation(tree, sibling.id, { reason, cascade: true }, clock.now(), partialsOf)).catch(onError);
    }
    const record = planAggregation(tree, groupId, clock.now());
    if (!record) return;
    const group = tree.groups.get(groupId)!;
    const tell = group.parent === null || tree.nodes.get(group.parent)!.status === 'open';
    const copy = { ...group, members: [...group.members] };
    commit(record, tell ? () => options.onAggregated?.(copy, record.aggregate) : undefined).catch(onError);
  }

  const expire = (id: string): void => {
    const record = planTimeout(tree, id, clock.now());
    if (record) commit(record).catch(onError);
  };

  const sendRetry = (id: string): void => {
    const node = tree.nodes.get(id);
    if (!node || node.status !== 'open' || node.retryAt === null) return;
    const attempt = node.throttled;
    commit({ kind: 'retried', id, attempt, at: clock.now() }, () => options.onRetry?.(view(node), attempt)).catch(
      onError,
    );
  };

  /** Keeps the timers in step with the tree after `record`. */
  function armFor(record: DelegationRecord, applied: Applied): void {
    for (const node of applied.settled) {
      watchdogs.disarm(node.id);
      retries.disarm(node.id);
    }
    const node = record.kind === 'aggregated' ? undefined : tree.nodes.get(record.id);
    if (!node || node.status !== 'open') return;
    if (record.kind === 'delegated') watchdogs.arm(node.id, node.deadline, () => expire(node.id));
    // A throttled answer while a retry waits moves it to the new retryAt, as a reopen would.
    if (node.retryAt !== null) retries.arm(node.id, node.retryAt, () => sendRetry(node.id));
  }

  // Re-arm what was open when the process stopped; what expired meanwhile times out now.
  const now = clock.now();
  // Stryker disable next-line ArrayDeclaration: Promise.all resolves a non-promise element at once, so a stand-in element changes nothing.
  const expired: Promise<unknown>[] = [];
  for (const node of tree.nodes.values()) {
    if (node.status !== 'open') continue;
    if (node.deadline <= now) {
      expired.push(commit({ kind: 'timed_out', id: node.id, at: now }));
      continue;
    }
    watchdogs.arm(node.id, node.deadline, () => expire(node.id));
    if (node.retryAt !== null) retries.arm(node.id, node.retryAt, () => sendRetry(node.id));
  }
  // A fan-out whose winner or last child was journaled just before the stop gets its follow-ups now.
  for (const groupId of tree.groups.keys()) settleFanOut(groupId);
  await Promise.all(expired);
  await tail;

  return {
    async delegate(request) {
      const record = planDelegation(tree, request, clock.now(), defaultTimeoutMs);
      if (record) await commit(record);
      else await tail; // a duplicate answers once the original is journaled
      if (broken) throw broken;
      return view(tree.nodes.get(request.id)!);
    },
    async report(id, outcome) {
      const ended = tree.nodes.get(id);
      if (ended && outcome.messageId !== undefined && ended.settledByMessage === outcome.messageId)
        return { late: false, repeated: true, node: view(ended) };
      const applied = await commit(planOutcome(tree, id, outcome, clock.now(), retryRule));
      return { late: applied.late, repeated: false, node: view(tree.nodes.get(id)!) };
    },
    async cancel(id, cancellation) {
      const record = planCancellation(tree, id, cancellation, clock.now(), partialsOf);
      const applied = await commit(record);
      return {
        late: applied.late,
        cancelled: applied.settled.map((node) => node.id),
        abandoned: applied.abandoned.map((node) => node.id),
      };
    },
    async fanOut(request) {
      const records = planFanOut(tree, request, clock.now(), defaultTimeoutMs);
      await Promise.all(records.map((record) => commit(record)));
      return records.map((record) => view(tree.nodes.get(record.id)!));
    },
    aggregate: (group) => tree.aggregates.get(group),
    node: (id) => {
      const node = tree.nodes.get(id);
      return node && view(node);
    },
    nodes: () => [...tree.nodes.values()].map(view),
    idle: () => tail.then(noop),
    async close() {
      closed = true;
      watchdogs.clear();
      retries.clear();
      await tail;
    },
  };
}
