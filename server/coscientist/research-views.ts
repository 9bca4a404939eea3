import { INITIAL_ELO } from '../../actors/coscientist/rules/elo.ts';
import { readRanking } from '../../actors/coscientist/agents/memory-reads.ts';
import type { OpenResearch } from '../../machines/coscientist/open-research.ts';
import type { ContextEntry, EntryType } from '../../protocol/coscientist/context-entry.ts';
import type { TaskState } from '../../protocol/coscientist/task-transitions.ts';
import type { TaskView } from '../../protocol/runtime/task-spec.ts';
import { TASK_PRIORITY } from '../../machines/coscientist/research-plan.ts';

/** The hypotheses ranked by Elo (`GET /research/:id/hypotheses`). */
export async function hypothesesView(research: OpenResearch) {
  const { ranking } = await readRanking(research.memory);
  const reviews = await research.memory.list('review');
  const reviewCount = new Map<string, number>();
  for (const r of reviews)
    reviewCount.set(String(r.content.hypothesis_id), (reviewCount.get(String(r.content.hypothesis_id)) ?? 0) + 1);
  return (await research.memory.consumable('hypothesis'))
    .map((entry) => ({
      hypothesis_id: entry.entry_id,
      text: String(entry.content.text),
      elo: Math.round((ranking.ratings[entry.entry_id] ?? INITIAL_ELO) * 100) / 100,
      matches: ranking.matches[entry.entry_id] ?? 0,
      reviews: reviewCount.get(entry.entry_id) ?? 0,
      parent_ids: entry.content.parent_ids as string[],
      iteration: Number(entry.content.iteration),
    }))
    .sort((a, b) => b.elo - a.elo || (a.hypothesis_id < b.hypothesis_id ? -1 : 1));
}

/** Every match (`GET /research/:id/matches`). */
export async function matchesView(research: OpenResearch) {
  return (await research.memory.list('match')).map(({ content }) => ({
    debate_id: String(content.debate_id),
    winner_id: String(content.winner_id),
    loser_id: String(content.loser_id),
    confidence_score: Number(content.confidence_score),
    elo_delta: Number(content.elo_delta),
    format: String(content.format),
  }));
}

/** A queue task's state in the `task` statechart's words. */
export function taskState(view: TaskView): TaskState {
  switch (view.status) {
    case 'completed':
      return 'done';
    case 'running':
      return 'running';
    case 'ready':
    case 'retrying':
      return 'ready';
    case 'waiting':
      return 'waiting';
    case 'blocked':
      return 'blocked';
    case 'failed':
      if (view.error?.code === 'timeout') return 'timed_out';
      if (view.error?.code === 'owner' && view.error.message.startsWith('cancelled')) return 'cancelled';
      return 'failed';
  }
}

/** The queue (`GET /research/:id/tasks`); times are when the task's journaled messages say. */
export function tasksView(research: OpenResearch) {
  const { times } = research;
  return research.run.record.tasks.flatMap((id) => {
    const view = research.queue.get(id);
    if (!view) return [];
    const input = view.input_data as { kind?: string };
    return [
      {
        task_id: id,
        agent_type: view.agent_type,
        priority: TASK_PRIORITY[input.kind ?? ''] ?? 5,
        dependencies: view.dependencies,
        status: taskState(view),
        attempts: view.attempts,
        assigned_at: times.of(id)?.assigned_at ?? null,
        finished_at: times.of(id)?.finished_at ?? null,
      },
    ];
  });
}

/** Context memory entries, of one type or all (`GET /research/:id/memory`). */
export async function memoryView(research: OpenResearch, type?: EntryType): Promise<ContextEntry[]> {
  const types: EntryType[] = type
    ? [type]
    : ['goal', 'guidance', 'hypothesis', 'review', 'debate', 'match', 'ranking', 'feedback', 'overview', 'error'];
  return (await Promise.all(types.map((t) => research.memory.list(t)))).flat();
}

/** The goal at a glance (`GET /research/:id`). */
export async function researchView(research: OpenResearch) {
  const record = research.run.record;
  const hypotheses = await hypothesesView(research);
  const reviews = await research.memory.list('review');
  const overviews = await research.memory.list('overview');
  const matches = await research.memory.list('match');
  return {
    research_id: research.researchId,
    state: record.state,
    iteration: record.iteration,
    ...(record.question ? { question: record.question } : {}),
    counts: { hypotheses: hypotheses.length, reviews: reviews.length, matches: matches.length },
    top: hypotheses.slice(0, 5),
    metrics: {
      mean_review_score_by_iteration: overviews.map((o) => Number(o.content.mean_review_score)),
      messages: research.messages,
      consistency_checks: record.checks,
      rollbacks: record.rollbacks,
    },
  };
}

/** The latest feedback per agent and the latest overview (`GET /research/:id/overview`). */
export async function overviewView(research: OpenResearch) {
  const latest = new Map<string, ContextEntry>();
  for (const entry of await research.memory.list('feedback')) {
    const agent = String(entry.content.target_agent);
    const seen = latest.get(agent);
    if (!seen || Number(seen.content.iteration) < Number(entry.content.iteration)) latest.set(agent, entry);
  }
  const overviews = (await research.memory.list('overview')).sort(
    (a, b) => Number(b.content.iteration) - Number(a.content.iteration),
  );
  return {
    research_id: research.researchId,
    feedback: Object.fromEntries([...latest].map(([agent, e]) => [agent, e.content])),
    overview: overviews[0]?.content ?? null,
  };
}
