import { readRanking, RANKING_ENTRY } from '../../actors/coscientist/agents/memory-reads.ts';
import { MatchContentSchema } from '../../protocol/coscientist/memory-content.ts';
import type { TaskView } from '../../protocol/runtime/task-spec.ts';
import { consistencyProblems } from './consistency-check.ts';
import type { ResearchRun } from './research-run.ts';

const RANKING_KEY = `ranking/${RANKING_ENTRY}`;

/**
 * The SUPERVISOR's periodic consistency check (at every change of phase). When it passes, the
 * memory is recorded as the last consistent version (the Elo table's version and the matches);
 * when it fails, memory is rolled back to that version (the table rewritten as it was, later
 * matches deleted) and, in the ranking phase, a new Elo update task replaces the one that ran.
 * Returns whether memory was consistent.
 *
 * @example
 * if (!(await checkConsistency(run))) return; // rolled back: wait for the new update
 */
export async function checkConsistency(run: ResearchRun): Promise<boolean> {
  const { memory, queue, leased } = run.deps;
  const { ranking, version } = await readRanking(memory);
  const matchEntries = await memory.list('match');
  const matches = matchEntries.map((e) => MatchContentSchema.parse(e.content));
  const hypothesisIds = new Set((await memory.list('hypothesis')).map((e) => e.entry_id));
  const tasks = run.record.tasks.map((id) => queue.get(id)).filter((t): t is TaskView => t !== undefined);
  const problems = consistencyProblems({ ranking, matches, hypothesisIds, tasks, leased });
  if (problems.length === 0) {
    await run.update((r) => ({
      ...r,
      checks: r.checks + 1,
      checkpoint: { ranking_version: version, match_ids: matchEntries.map((e) => e.entry_id) },
    }));
    return true;
  }
  run.deps.onError?.(new Error(`Goal ${run.deps.researchId} is inconsistent, rolling back: ${problems.join('; ')}`));
  const checkpoint = run.record.checkpoint;
  const keep = new Set(checkpoint?.match_ids ?? []);
  for (const entry of matchEntries) {
    if (!keep.has(entry.entry_id))
      await memory.state.write('SUPERVISOR', [{ key: `match/${entry.entry_id}`, delete: true }]);
  }
  if (checkpoint && checkpoint.ranking_version > 0) {
    if (checkpoint.ranking_version !== version)
      await memory.state.rollback('SUPERVISOR', RANKING_KEY, checkpoint.ranking_version);
  } else if (version > 0) {
    await memory.state.write('SUPERVISOR', [{ key: RANKING_KEY, delete: true }]);
  }
  const inRanking = run.record.state === 'ranking';
  await run.update((r) => ({
    ...r,
    rollbacks: r.rollbacks + 1,
    ...(inRanking ? { apply_task: `i${r.iteration}-apply-r${r.rollbacks + 1}` } : {}),
  }));
  return false;
}
