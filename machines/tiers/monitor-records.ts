import { EMPTY_BOTTLENECKS, updateBottlenecks, type Bottlenecks } from '../../actors/tiers/monitor/bottlenecks.ts';
import { evaluateOutcome, type OutcomeBounds } from '../../actors/tiers/monitor/outcome-bounds.ts';
import { routineFor, type Routine } from '../../actors/tiers/monitor/routines.ts';
import {
  EMPTY_ROUTING_ACCURACY,
  updateRoutingAccuracy,
  type RoutingAccuracy,
} from '../../actors/tiers/monitor/routing-accuracy.ts';
import type { OutcomePayload } from '../../protocol/tiers/payloads.ts';
import type { TaskGraph } from './dispatch-graph.ts';
import type { TaskContext } from './task-context.ts';

const valueOf = async <T>(ctx: TaskContext, key: string, fallback: T): Promise<T> =>
  ((await ctx.beads.get(key))?.value as T | undefined) ?? fallback;

/** Tries of the Monitor's compare-and-set before it gives up (each conflict is another task's write that landed). */
const RECORD_ATTEMPTS = 20;

/** Per-user reads of one try, each remembered with its version for the compare-and-set. */
function versionedReader(ctx: TaskContext) {
  const versions = new Map<string, number>();
  const read = async <T>(key: string, fallback: T): Promise<T> => {
    const entry = await ctx.beads.get(key);
    versions.set(key, entry?.version ?? 0);
    return (entry?.value as T | undefined) ?? fallback;
  };
  return { read, versions };
}

/**
 * What the Monitor learns from a task that ended (spec 002: "Updates beads:system/*,
 * beads:history/*. Evaluates: was this surprising? Update confidence bounds."): per specialist
 * outcome, `system/routing-accuracy` and `system/bottlenecks`; `system/loaded-loras` (the
 * specialists used); `history/outcome-bounds` and the surprise flag of the task's outcome;
 * `history/routines/{family}` for a solution that passed; `history/context-vector` (the task's
 * trajectory, compressed). Returns the final outcome with `surprise_flag` and `resources_used`.
 */
export async function recordOutcome(ctx: TaskContext, outcome: OutcomePayload): Promise<OutcomePayload> {
  const graph = await valueOf<TaskGraph | undefined>(ctx, 'routing/task-graph', undefined);
  const subtasks = graph?.subtasks.filter((s) => s.attempts.length > 0) ?? [];
  // The per-user records are shared by the user's tasks: read, learn, and write every key only if
  // none moved since the read (compare-and-set, all or nothing); on a conflict learn again from the fresh values.
  let judged: Judged | undefined;
  for (let attempt = 1; judged === undefined; attempt++) {
    const { read, versions } = versionedReader(ctx);
    const learned = await learn(ctx, outcome, subtasks, read);
    // Keys written whole (`system/loaded-loras`, `history/context-vector`) were not read: last write wins.
    const writes = learned.writes.map((w) => {
      const expectedVersion = versions.get(w.key);
      return expectedVersion === undefined ? w : { ...w, expectedVersion };
    });
    const result = await ctx.beads.write('MONITOR', writes);
    if (result.ok) judged = learned.judged;
    else if (attempt >= RECORD_ATTEMPTS)
      throw new Error(
        `The Monitor gave up recording task ${ctx.taskId}: "${result.conflict.key}" changed under it ${RECORD_ATTEMPTS} times (other tasks of user ${ctx.user} settling); the task still ends.`,
      );
  }
  const attempts = subtasks.reduce((sum, s) => sum + s.attempts.length, 0);
  const tokensIn = (graph?.tokens.input ?? 0) + subtasks.reduce((sum, s) => sum + s.tokens.input, 0);
  const tokensOut = (graph?.tokens.output ?? 0) + subtasks.reduce((sum, s) => sum + s.tokens.output, 0);
  return {
    ...outcome,
    surprise_flag: judged.surprise_flag,
    surprise_reason: judged.surprise_reason,
    resources_used: {
      ...outcome.resources_used,
      specialists_used: [...new Set(subtasks.map((s) => s.specialist))],
      attempts,
      tokens: { input: tokensIn, output: tokensOut },
    },
  };
}

type Judged = ReturnType<typeof evaluateOutcome>;
type Read = <T>(key: string, fallback: T) => Promise<T>;

/** One try's learning: the per-user writes from the records as `read` saw them, and the outcome's judgment. */
async function learn(
  ctx: TaskContext,
  outcome: OutcomePayload,
  subtasks: TaskGraph['subtasks'],
  read: Read,
): Promise<{ writes: { key: string; value: unknown }[]; judged: Judged }> {
  let accuracy = await read<RoutingAccuracy>('system/routing-accuracy', EMPTY_ROUTING_ACCURACY);
  let bottlenecks = await read<Bottlenecks>('system/bottlenecks', EMPTY_BOTTLENECKS);
  for (const s of subtasks) {
    accuracy = updateRoutingAccuracy(accuracy, {
      specialist: s.specialist,
      task_type: s.task_type,
      status: s.status as OutcomePayload['status'],
    });
    const node = ctx.tree.node(s.attempts.at(-1)!);
    const ms = node?.settledAt !== undefined ? node.settledAt - node.delegatedAt : 0;
    bottlenecks = updateBottlenecks(bottlenecks, {
      specialist: s.specialist,
      task_type: s.task_type,
      execution_time_ms: Math.max(0, ms),
    });
  }
  const bounds = await read<OutcomeBounds>('history/outcome-bounds', {});
  const judged = evaluateOutcome(bounds, {
    task_type: 'solve',
    confidence: outcome.confidence,
    execution_time_ms: outcome.execution_time_ms,
    status: outcome.status,
  });
  const writes: { key: string; value: unknown }[] = [
    { key: 'system/routing-accuracy', value: accuracy },
    { key: 'system/bottlenecks', value: bottlenecks },
    { key: 'system/loaded-loras', value: [...new Set(subtasks.map((s) => s.specialist))] },
    { key: 'history/outcome-bounds', value: judged.bounds },
    {
      key: 'history/context-vector',
      value: {
        task_id: ctx.taskId,
        status: outcome.status,
        confidence: outcome.confidence,
        subtasks: subtasks.map((s) => `${s.key}:${s.status}`),
      },
    },
  ];
  for (const s of subtasks) {
    const seen = {
      status: s.status as OutcomePayload['status'],
      specialist: s.specialist,
      task_type: s.task_type,
      confidence: s.confidence,
      artifacts: s.artifacts,
    };
    const probe = routineFor(seen);
    if (!probe) continue;
    // Several attempts of one family succeeding count once (one key per atomic write).
    if (writes.some((w) => w.key === probe.key)) continue;
    const routine = routineFor(seen, await read<Routine | undefined>(probe.key, undefined))!;
    writes.push({ key: routine.key, value: routine.routine });
  }
  return { writes, judged };
}
