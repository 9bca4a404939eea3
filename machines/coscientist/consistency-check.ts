import type { TaskView } from '../../protocol/runtime/task-spec.ts';
import type { MatchContent, RankingContent } from '../../protocol/coscientist/memory-content.ts';
import { ratingsFromMatches } from '../../actors/coscientist/rules/elo.ts';

/** What the SUPERVISOR's periodic check reads. */
export interface ConsistencyInput {
  ranking: RankingContent;
  matches: readonly MatchContent[];
  hypothesisIds: ReadonlySet<string>;
  tasks: readonly TaskView[];
  /** Tasks a worker holds a lease for now. */
  leased: ReadonlySet<string>;
}

/**
 * The State Consistency Protocol's checks (issue 13): every rating equals 1200 plus its stored
 * match deltas; no match names a missing hypothesis; no running task without a live lease; the
 * dependency graph is acyclic. Returns what is wrong (empty when consistent).
 *
 * @example
 * consistencyProblems({ ranking, matches, hypothesisIds, tasks, leased }); // []
 */
export function consistencyProblems(input: ConsistencyInput): string[] {
  const problems: string[] = [];
  const recomputed = ratingsFromMatches(input.matches);
  for (const [id, rating] of Object.entries(input.ranking.ratings)) {
    const expected = recomputed[id] ?? 1200;
    if (Math.abs(expected - rating) > 1e-6)
      problems.push(`rating of ${id} is ${rating}, but 1200 plus its match deltas is ${expected}`);
  }
  for (const id of Object.keys(recomputed)) {
    if (!(id in input.ranking.ratings)) problems.push(`${id} has matches but no rating`);
  }
  for (const match of input.matches) {
    for (const id of [match.winner_id, match.loser_id]) {
      if (!input.hypothesisIds.has(id)) problems.push(`match ${match.debate_id} names missing hypothesis ${id}`);
    }
  }
  for (const task of input.tasks) {
    if (task.status === 'running' && !input.leased.has(task.task_id))
      problems.push(`task ${task.task_id} runs without a live lease`);
  }
  const cycle = findCycle(input.tasks);
  if (cycle) problems.push(`the dependency graph has a cycle: ${cycle.join(' -> ')}`);
  return problems;
}

/** A dependency cycle among `tasks`, if any (depth-first search). */
function findCycle(tasks: readonly TaskView[]): string[] | undefined {
  const deps = new Map(tasks.map((t) => [t.task_id, t.dependencies]));
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | undefined => {
    if (state.get(id) === 'done') return undefined;
    if (state.get(id) === 'open') return [...path.slice(path.indexOf(id)), id];
    state.set(id, 'open');
    path.push(id);
    for (const dep of deps.get(id) ?? []) {
      const found = visit(dep);
      if (found) return found;
    }
    path.pop();
    state.set(id, 'done');
    return undefined;
  };
  for (const id of deps.keys()) {
    const found = visit(id);
    if (found) return found;
  }
  return undefined;
}
