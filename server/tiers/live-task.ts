import { derivedUuid } from '../../actors/runtime/derived-id.ts';
import type { ServiceClock } from '../../actors/runtime/clock.ts';
import { DeadlineTimers } from '../../actors/runtime/deadline-timers.ts';
import type { Journal } from '../../actors/runtime/journal.ts';
import { openSharedState } from '../../actors/runtime/shared-state/open-shared-state.ts';
import { outcomeEnvelope, outcomePayload } from '../../actors/tiers/tier-envelopes.ts';
import {
  openDelegationTree,
  type DelegationNodeView,
  type DelegationTree,
} from '../../machines/runtime/delegation-tree.ts';
import {
  DEFAULT_TIER_TIMEOUTS,
  type TaskContext,
  type TaskSettlement,
  type TierBrains,
} from '../../machines/tiers/task-context.ts';
import { dataOf, partialResultsOf } from '../../machines/tiers/tier-steps.ts';
import type { DelegationRecord } from '../../protocol/runtime/delegation-record.ts';
import { BEADS_SCHEMA } from '../../protocol/tiers/beads.ts';
import type { Tier, TiersEnvelope } from '../../protocol/tiers/envelope.ts';
import type { HostedRun } from '../run-host/hosted-run.ts';

/** What a live task needs from its service. */
export interface LiveTaskOptions {
  taskId: string;
  user: string;
  run: HostedRun;
  trees: Journal<DelegationRecord>;
  beadsJournal: Journal<unknown>;
  clock: ServiceClock;
  brains: TierBrains;
  /** Sends an envelope through the run (registering its id to the task first). */
  send: (envelope: TiersEnvelope, context?: unknown) => void;
  settle: (settlement: TaskSettlement) => Promise<void>;
  /** Stops the work of a delegation its target still runs (the watchdog ended it). */
  stopWork: (target: string, id: string) => void;
  /** Told each delegation that ended (the SSE `status` events). */
  onSettled: (node: DelegationNodeView) => void;
  timeouts?: Partial<Record<Tier, number>>;
}

/**
 * One task at work: its supervised run, its delegation tree (watchdogs re-armed from absolute
 * deadlines when reopened) and its Beads view, as the tiers' `TaskContext`. The sender's watchdog
 * is authoritative: when it ends a delegation, the task's run carries a `timeout` outcome from
 * the silent tier to the waiting one (marked as the watchdog's), so every delegation gets exactly
 * one terminal outcome on the wire too.
 */
export class LiveTask {
  readonly ctx: TaskContext;
  /** Retries waiting out their backoff, by delegation id: cleared when their delegation ends first. */
  private readonly pending: DeadlineTimers<string>;

  private constructor(
    readonly options: LiveTaskOptions,
    readonly tree: DelegationTree,
  ) {
    const { taskId, user, clock, brains, run } = options;
    const beads = openSharedState({
      journal: options.beadsJournal,
      schema: BEADS_SCHEMA,
      scopes: { task: taskId, user },
      clock,
    });
    const timeouts = { ...DEFAULT_TIER_TIMEOUTS, ...options.timeouts };
    this.pending = new DeadlineTimers<string>(clock);
    this.ctx = {
      taskId,
      user,
      tree,
      beads,
      clock,
      brains,
      newId: (...parts) => derivedUuid('tiers', taskId, ...parts),
      sendAt: (at, envelope) =>
        this.pending.arm(envelope.id, at, () => {
          // Its delegation (or an ancestor) may have ended during the backoff: then nothing goes out.
          if (tree.node(envelope.id)?.status === 'open') options.send(envelope);
        }),
      settle: (settlement) => options.settle(settlement),
      defaultTimeoutMs: (tier) => timeouts[tier],
    };
    void run;
  }

  /** Opens the task's tree (replaying its journal) and its Beads view. */
  static async open(options: LiveTaskOptions): Promise<LiveTask> {
    let live: LiveTask | undefined;
    const early: DelegationNodeView[] = [];
    const tree = await openDelegationTree({
      journal: options.trees,
      partition: options.taskId,
      clock: options.clock,
      // A `throttled` outcome ends its delegation at once: the sender retries it as a new message
      // (the Dispatcher, like its other transient failures), not the tree under the same id.
      retry: { maxRetries: 0 },
      partialResults: (node) => (live ? partialResultsOf(live.ctx, node) : undefined),
      onSettled: (node) => (live ? live.settled(node) : early.push(node)),
      onError: (error) => console.error(`Tiers task ${options.taskId}:`, error),
    });
    live = new LiveTask(options, tree);
    for (const node of early) live.settled(node);
    return live;
  }

  /** A delegation ended: a watchdog's end goes on the wire as the silent tier's `timeout`. */
  private settled(node: DelegationNodeView): void {
    this.options.onSettled(node);
    this.dropRetry(node.id);
    if (node.settledBy !== 'watchdog') return;
    // The sender stopped waiting: the target stops working on it (a specialist is aborted).
    this.options.stopWork(node.target, node.id);
    const envelope = outcomeEnvelope(
      {
        id: this.ctx.newId('watchdog', node.id),
        from: node.target as Tier,
        to: node.owner as Tier,
        correlationId: node.id,
        at: this.ctx.clock.now(),
      },
      outcomePayload({
        status: 'timeout',
        summary: `No answer from ${node.target} within ${node.deadline - node.delegatedAt} ms (the sender's watchdog).`,
        execution_time_ms: Math.max(0, node.deadline - node.delegatedAt),
        error_type: 'timeout',
        error_detail: `timeout after ${node.deadline - node.delegatedAt}ms`,
        recoverable: true,
      }),
    );
    this.options.send(envelope, { watchdog: true });
  }

  /**
   * The task ended: what is still open under it (children abandoned by a cancellation without
   * cascade, racers nobody waits for) ends `cancelled` now, so every delegation has exactly one
   * terminal outcome. Not called when the process stops: a restart resumes those.
   */
  async endOpen(reason: string): Promise<void> {
    for (const node of this.tree.nodes()) {
      const parent = node.parent === null ? undefined : this.tree.node(node.parent);
      if (node.status === 'open' && parent?.status !== 'open')
        await this.tree.cancel(node.id, { reason, cascade: true });
    }
  }

  /** A delegation ended (cancelled, timed out, the task over) while its retry waited: the retry never goes. */
  private dropRetry(id: string): void {
    this.pending.disarm(id);
  }

  /**
   * After a restart, an open delegation whose envelope never reached the journal: a retry still
   * inside its backoff is re-armed for its journaled due time, anything else goes now.
   */
  sendWhenDue(node: DelegationNodeView): void {
    const { envelope, sendAt } = dataOf(node);
    if (sendAt !== undefined && sendAt > this.options.clock.now()) this.ctx.sendAt(sendAt, envelope);
    else this.options.send(envelope);
  }

  async close(): Promise<void> {
    this.pending.clear();
    await this.tree.close();
    await this.ctx.beads.close();
  }
}
