import type { AggregationStrategy } from '../../protocol/runtime/aggregated-outcome.ts';
import type { Artifact, OutcomePayload } from '../../protocol/tiers/payloads.ts';
import type { PlannedSubtask } from '../../actors/tiers/planning/plan.ts';

/** Where a subtask of the Dispatcher's graph is. */
export type SubtaskStatus = 'pending' | 'running' | Exclude<OutcomePayload['status'], 'throttled'>;

/** One subtask of `routing/task-graph`: the plan's node, who runs it, and its attempts. */
export interface GraphSubtask extends PlannedSubtask {
  specialist: string;
  /** Specialists it must not go to again (one was unavailable). */
  excluded: string[];
  /** Delegation ids of its attempts, oldest first; the last one is current. */
  attempts: string[];
  status: SubtaskStatus;
  confidence: number;
  /** The order subtasks ended in (aggregation reads outcomes in the order they arrived). */
  settled_order: number | null;
  /** What its last outcome said, for the aggregate. */
  artifacts: Artifact[];
  error: string | null;
  /** The specialist's `error_type` and `recoverable`, when it failed. */
  error_type?: string | null;
  recoverable?: boolean | null;
  tokens: { input: number; output: number };
}

/** The Dispatcher's state for one delegation it works on: spec 002's `routing/task-graph`. */
export interface TaskGraph {
  /** The delegation (Architect -> Dispatcher) this graph serves. */
  delegation: string;
  strategy: AggregationStrategy;
  subtasks: GraphSubtask[];
  settled: number;
  /** Model tokens of the Dispatcher's own routing. */
  tokens: { input: number; output: number };
}

const FINAL = new Set<SubtaskStatus>([
  'success',
  'partial',
  'failed',
  'blocked',
  'needs_clarification',
  'timeout',
  'cancelled',
]);

/** Whether a subtask has ended. */
export const isFinal = (subtask: GraphSubtask) => FINAL.has(subtask.status);

/**
 * The subtasks that can start now (pending, every dependency ended) and those that never will
 * (a dependency ended other than `success`: `blocked`, never started).
 */
export function nextWave(graph: TaskGraph): { ready: GraphSubtask[]; blocked: GraphSubtask[] } {
  const byKey = new Map(graph.subtasks.map((s) => [s.key, s]));
  const ready: GraphSubtask[] = [];
  const blocked: GraphSubtask[] = [];
  for (const subtask of graph.subtasks) {
    if (subtask.status !== 'pending') continue;
    const deps = subtask.depends_on.map((key) => byKey.get(key)!);
    if (deps.some((dep) => isFinal(dep) && dep.status !== 'success')) blocked.push(subtask);
    else if (deps.every((dep) => dep.status === 'success')) ready.push(subtask);
  }
  return { ready, blocked };
}

/** Ends a subtask with `status` (in arrival order). */
export function settleSubtask(
  graph: TaskGraph,
  subtask: GraphSubtask,
  status: SubtaskStatus,
  fields: Partial<GraphSubtask> = {},
): void {
  Object.assign(subtask, fields);
  subtask.status = status;
  subtask.settled_order = ++graph.settled;
}

/** The subtask whose current attempt is `messageId`. */
export const subtaskOfAttempt = (graph: TaskGraph, messageId: string) =>
  graph.subtasks.find((s) => s.attempts[s.attempts.length - 1] === messageId);

/** The code of an `execute_code` dependency that succeeded, by its last attempt: what verifiers check. */
export function codeRefFor(graph: TaskGraph, subtask: GraphSubtask): string | undefined {
  const solved = subtask.depends_on
    .map((key) => graph.subtasks.find((s) => s.key === key)!)
    .find((dep) => dep.task_type === 'execute_code' && dep.status === 'success');
  return solved ? `beads:execution/outputs/${solved.attempts[solved.attempts.length - 1]}` : undefined;
}
