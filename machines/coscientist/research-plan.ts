import { priorityMapper } from '../../protocol/runtime/priority-scale.ts';
import { PRIORITY_RANGE_1_TO_10 } from '../../protocol/runtime/priority-scale.ts';
import type { TaskSpecInput } from '../../protocol/runtime/task-spec.ts';
import type { TaskAssignment, TournamentRequest, WorkerAgent } from '../../protocol/coscientist/payloads.ts';

/** Spec 003 priorities (1 most urgent .. 10) of each kind of task. */
export const TASK_PRIORITY: Readonly<Record<string, number>> = {
  generate: 3,
  review: 4,
  tournament_request: 4,
  debate: 5,
  apply: 4,
  evolve: 5,
  meta_review: 6,
};

const toRuntime = priorityMapper(PRIORITY_RANGE_1_TO_10);

/** A task as the SUPERVISOR plans it: the spec's assignment (priority 1-10). */
export function assignment(
  task_id: string,
  agent_type: WorkerAgent,
  input_data: Record<string, unknown> & { kind: string },
  dependencies: string[] = [],
): TaskAssignment {
  return { task_id, agent_type, input_data, priority: TASK_PRIORITY[input_data.kind] ?? 5, dependencies };
}

/** The queue's spec of an assignment: its priority mapped onto the runtime's 0-4. */
export function toTaskSpec(task: TaskAssignment): TaskSpecInput {
  return { ...task, priority: toRuntime(task.priority) ?? 2 };
}

/** The debates of a tournament and the Elo update that waits for all of them (one batch). */
export function tournamentTasks(iteration: number, request: TournamentRequest, k: number): TaskAssignment[] {
  const debates = request.hypothesis_pairs.map((pair, n) =>
    assignment(`i${iteration}-d${n + 1}`, 'RANKING', {
      kind: 'debate',
      iteration,
      debate_id: `d${iteration}-${pair.a}-${pair.b}`,
      a: pair.a,
      b: pair.b,
      debate_format: pair.debate_format,
      evaluation_criteria: request.evaluation_criteria,
    }),
  );
  const apply = assignment(
    `i${iteration}-apply`,
    'RANKING',
    { kind: 'apply', iteration, k, debate_ids: debates.map((d) => d.input_data.debate_id) },
    debates.map((d) => d.task_id),
  );
  return [...debates, apply];
}
