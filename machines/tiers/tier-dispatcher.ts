import { derivedFraction } from '../../actors/runtime/derived-id.ts';
import { senderRetryDelay } from '../../actors/runtime/sender-retry.ts';
import { cancellationEnvelope } from '../../actors/tiers/tier-envelopes.ts';
import type { Plan } from '../../actors/tiers/planning/plan.ts';
import type { TiersEnvelope } from '../../protocol/tiers/envelope.ts';
import type { DelegationPayload, OutcomePayload } from '../../protocol/tiers/payloads.ts';
import {
  codeRefFor,
  isFinal,
  nextWave,
  settleSubtask,
  subtaskOfAttempt,
  type GraphSubtask,
  type TaskGraph,
} from './dispatch-graph.ts';
import { dispatchOutcome } from './dispatch-outcome.ts';
import { answerSubtask } from './dispatcher-clarification.ts';
import { fleetStatus } from './fleet-status.ts';
import type { TaskContext, TierHandler } from './task-context.ts';
import {
  answerCancellation,
  dataOf,
  delegateDown,
  payloadOf,
  refuseRefs,
  replyTo,
  takeOutcome,
  unreadableRefs,
} from './tier-steps.ts';
import { outcomePayload } from '../../actors/tiers/tier-envelopes.ts';

/** Retries of a transient failure (spec 002: up to 3), backing off from 1 s, doubling, to 10 s. */
export const DISPATCH_RETRY = { maxRetries: 3, policy: { baseMs: 1_000, maxMs: 10_000 } } as const;

const CONTEXT_REFS = ['beads:task/problem-statement', 'beads:task/test-cases', 'beads:routing/assignments'];

async function saveGraph(ctx: TaskContext, graph: TaskGraph): Promise<void> {
  const assignments = graph.subtasks.map((s) => ({ key: s.key, specialist: s.specialist, excluded: s.excluded }));
  await ctx.beads.write('DISPATCHER', [
    { key: 'routing/task-graph', value: graph },
    { key: 'routing/assignments', value: assignments },
  ]);
}

/** The graph as last written (a copy: Beads values are frozen, and the Dispatcher edits its graph). */
async function readGraph(ctx: TaskContext): Promise<TaskGraph | undefined> {
  const entry = await ctx.beads.get('routing/task-graph');
  return entry ? (structuredClone(entry.value) as TaskGraph) : undefined;
}

/**
 * Starts attempt number `attempts.length + 1` of a subtask (after `delayMs`, a retry's backoff:
 * its due time is journaled with the delegation, and a restart re-arms it for that time).
 */
async function startAttempt(
  ctx: TaskContext,
  graph: TaskGraph,
  subtask: GraphSubtask,
  parent: TiersEnvelope,
  delayMs = 0,
): Promise<TiersEnvelope[]> {
  const index = graph.subtasks.indexOf(subtask);
  const codeRef = codeRefFor(graph, subtask);
  const id = ctx.newId('subtask', parent.id, subtask.key, subtask.attempts.length + 1);
  const envelope = await delegateDown(ctx, {
    from: 'ROUTING_DISPATCHER',
    to: 'SPECIALIZED_FLEET',
    parent: parent.id,
    correlationId: parent.id,
    id,
    specialist: subtask.specialist,
    key: subtask.key,
    ...(delayMs > 0 ? { sendAt: ctx.clock.now() + delayMs } : {}),
    payload: {
      task_type: subtask.task_type,
      objective: subtask.objective,
      constraints: subtask.constraints,
      context_refs: CONTEXT_REFS,
      priority: payloadOf<DelegationPayload>(parent).priority,
      timeout_ms: null,
      deadline_hint: null,
      specialist_hint: subtask.specialist,
      task_data: {
        ...subtask.task_data,
        subtask_key: subtask.key,
        subtask_index: index + 1,
        subtask_total: graph.subtasks.length,
        ...(codeRef ? { code_ref: codeRef } : {}),
      },
    },
  });
  subtask.attempts.push(id);
  subtask.status = 'running';
  // The journaled time wins: a retry delegated again (handed over after a crash) keeps its first due time.
  const sendAt = dataOf(ctx.tree.node(id)!).sendAt;
  if (sendAt !== undefined) {
    ctx.sendAt(sendAt, envelope);
    return [];
  }
  return [envelope];
}

/** Starts every subtask that can start, blocks those that never will, and answers up once all ended. */
async function advance(ctx: TaskContext, graph: TaskGraph, parent: TiersEnvelope): Promise<TiersEnvelope[]> {
  const sends: TiersEnvelope[] = [];
  for (;;) {
    const { ready, blocked } = nextWave(graph);
    for (const subtask of blocked)
      settleSubtask(graph, subtask, 'blocked', {
        error: `a dependency (${subtask.depends_on.join(', ')}) did not succeed`,
      });
    for (const subtask of ready) sends.push(...(await startAttempt(ctx, graph, subtask, parent)));
    if (blocked.length === 0) break;
  }
  await saveGraph(ctx, graph);
  if (graph.subtasks.every(isFinal)) {
    const node = ctx.tree.node(parent.id)!;
    sends.push(
      replyTo(ctx, parent, dispatchOutcome(graph, Math.max(0, Math.round(ctx.clock.now() - node.delegatedAt)))),
    );
  }
  return sends;
}

/** Plans the routing of a delegation from the Architect and starts its first wave. */
async function dispatch(ctx: TaskContext, envelope: TiersEnvelope): Promise<TiersEnvelope[]> {
  const payload = payloadOf<DelegationPayload>(envelope);
  const refused = unreadableRefs('ROUTING_DISPATCHER', payload);
  if (refused.length > 0) return [refuseRefs(ctx, envelope, refused)];
  const plan = payload.task_data['plan'] as Pick<Plan, 'subtasks' | 'aggregation_strategy'>;
  let routed;
  try {
    routed = await ctx.brains.dispatcher.route({
      subtasks: plan.subtasks,
      specialists: await fleetStatus(ctx),
      priority: payload.priority,
    });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return [
      replyTo(
        ctx,
        envelope,
        outcomePayload({
          status: 'failed',
          summary: 'No routing for the plan.',
          error_type: 'unassignable_subtask',
          error_detail: detail,
          recoverable: false,
        }),
      ),
    ];
  }
  const specialistOf = new Map(routed.assignments.map((a) => [a.key, a.specialist]));
  const graph: TaskGraph = {
    delegation: envelope.id,
    strategy: plan.aggregation_strategy,
    settled: 0,
    tokens: routed.tokens ?? { input: 0, output: 0 },
    subtasks: plan.subtasks.map((s) => ({
      ...s,
      specialist: specialistOf.get(s.key)!,
      excluded: [],
      attempts: [],
      status: 'pending',
      confidence: 0,
      settled_order: null,
      artifacts: [],
      error: null,
      tokens: { input: 0, output: 0 },
    })),
  };
  return advance(ctx, graph, envelope);
}

/** Re-routes a subtask away from an unavailable specialist; false when no other can take it. */
async function reroute(ctx: TaskContext, graph: TaskGraph, subtask: GraphSubtask, priority: number): Promise<boolean> {
  subtask.excluded.push(subtask.specialist);
  try {
    const { assignments } = await ctx.brains.dispatcher.route({
      subtasks: [subtask],
      specialists: await fleetStatus(ctx),
      priority,
      exclude: { [subtask.key]: subtask.excluded },
    });
    subtask.specialist = assignments[0]!.specialist;
    return true;
  } catch {
    return false;
  }
}

/** Takes a specialist's outcome: retries a transient failure (timeout, throttled, recoverable failed), re-routes an unavailable specialist, else ends the subtask. */
async function takeChildOutcome(
  ctx: TaskContext,
  envelope: TiersEnvelope,
  watchdog: boolean,
): Promise<TiersEnvelope[]> {
  const { late, repeated, node } = await takeOutcome(ctx, envelope, watchdog);
  if (late || !node || node.status === 'open') return [];
  const graph = await readGraph(ctx);
  const subtask = graph && subtaskOfAttempt(graph, node.id);
  if (!graph || !subtask) return [];
  const parentNode = ctx.tree.node(graph.delegation)!;
  if (parentNode.status !== 'open') return [];
  const parent = dataOf(parentNode).envelope;
  // Handed over again after a crash, once the graph took it (the subtask ended or went on to a
  // retry): what is left is what follows, and advancing is idempotent.
  if (repeated && (isFinal(subtask) || subtask.attempts.at(-1) !== node.id)) return advance(ctx, graph, parent);
  if (isFinal(subtask)) return [];
  const payload = (node.result ?? {}) as Partial<OutcomePayload>;
  subtask.tokens.input += Number(payload.resources_used?.['tokens_in'] ?? 0);
  subtask.tokens.output += Number(payload.resources_used?.['tokens_out'] ?? 0);
  const status = node.status;
  if (
    status === 'failed' &&
    payload.error_type === 'unavailable_specialist' &&
    (await reroute(ctx, graph, subtask, payloadOf<DelegationPayload>(parent).priority))
  ) {
    const sends = await startAttempt(ctx, graph, subtask, parent);
    await saveGraph(ctx, graph);
    return sends;
  }
  // Spec 002's transient failures; a `throttled` attempt ended `failed` in the tree (it retries nothing itself).
  const transient =
    status === 'timeout' || payload.status === 'throttled' || (status === 'failed' && payload.recoverable === true);
  const retry = subtask.attempts.length;
  const delay = transient
    ? senderRetryDelay({
        ...DISPATCH_RETRY,
        attempt: retry,
        now: ctx.clock.now(),
        deadline: parentNode.deadline,
        // Its jitter is drawn from the attempt that failed: the same work redone waits the same.
        random: () => derivedFraction('tiers', ctx.taskId, 'dispatch-retry', node.id),
      })
    : undefined;
  if (delay !== undefined) {
    await startAttempt(ctx, graph, subtask, parent, delay);
    await saveGraph(ctx, graph);
    return [];
  }
  const restart = async () => {
    const sends = await startAttempt(ctx, graph, subtask, parent);
    await saveGraph(ctx, graph);
    return sends;
  };
  const answered =
    status === 'needs_clarification' && (await answerSubtask(ctx, { graph, subtask, parent, envelope, restart }));
  if (answered) return answered;
  settleSubtask(graph, subtask, status, {
    confidence: node.confidence ?? 0,
    artifacts: payload.artifacts ?? [],
    error: payload.error_detail ?? (status === 'success' ? null : status),
    error_type: payload.error_type ?? null,
    recoverable: payload.recoverable ?? null,
  });
  return [...(await cancelRacers(ctx, graph, subtask)), ...(await advance(ctx, graph, parent))];
}

/** Under `first_success`, the first success cancels the attempts still running. */
async function cancelRacers(ctx: TaskContext, graph: TaskGraph, winner: GraphSubtask): Promise<TiersEnvelope[]> {
  if (graph.strategy !== 'first_success' || winner.status !== 'success') return [];
  const sends: TiersEnvelope[] = [];
  const reason = `first_success: ${winner.key} succeeded first`;
  for (const racer of graph.subtasks.filter((s) => s.status === 'running')) {
    const id = racer.attempts.at(-1)!;
    await ctx.tree.cancel(id, { reason, cascade: true });
    settleSubtask(graph, racer, 'cancelled', { error: reason });
    sends.push(
      cancellationEnvelope(
        {
          id: ctx.newId('cancel', id),
          from: 'ROUTING_DISPATCHER',
          to: 'SPECIALIZED_FLEET',
          correlationId: null,
          at: ctx.clock.now(),
        },
        { target_message_id: id, reason, cascade: true },
      ),
    );
  }
  return sends;
}

/**
 * Spec 002's ROUTING_DISPATCHER: routes the Architect's task graph over the fleet (writing
 * `routing/task-graph` and `routing/assignments`), runs it in waves, retries transient failures
 * (up to 3, backoff inside the deadline, a new id with the same correlation), re-routes an
 * unavailable specialist, and reports the aggregate up.
 */
export const dispatcherTier: TierHandler = async ({ envelope, watchdog }, ctx) => {
  if ('target_message_id' in envelope.payload) return answerCancellation(ctx, envelope);
  if ('task_type' in envelope.payload) return dispatch(ctx, envelope);
  return takeChildOutcome(ctx, envelope, watchdog);
};
