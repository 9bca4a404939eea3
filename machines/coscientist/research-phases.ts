import { allHypotheses, reviewsByHypothesis } from '../../actors/coscientist/agents/memory-reads.ts';
import type { AgentResult } from '../../actors/coscientist/agents/agent-context.ts';
import type { ResearchPhase, ResearchEventType } from '../../protocol/coscientist/research-transitions.ts';
import type { TaskAssignment } from '../../protocol/coscientist/payloads.ts';
import type { TaskView } from '../../protocol/runtime/task-spec.ts';
import type { ResearchRecord } from './research-record.ts';
import { assignment, toTaskSpec, tournamentTasks } from './research-plan.ts';
import { researchMessage } from './research-messages.ts';
import type { ResearchRun } from './research-run.ts';

/** Where a phase stands: waiting for tasks, done (with the event that moves the goal), or stopped by a failed task. */
export type PhaseOutcome =
  | { kind: 'waiting' }
  | { kind: 'failed'; task: TaskView }
  | { kind: 'done'; event: ResearchEventType; change?: (record: ResearchRecord) => ResearchRecord };

const WAITING: PhaseOutcome = { kind: 'waiting' };

/**
 * Submits the assignments the queue does not hold yet (one batch, all or none, on disk before
 * anything else), notes them in the record, then sends each its `task_assignment` message.
 * Returns false when the queue is full (the loop tries again later).
 */
export async function ensureTasks(run: ResearchRun, tasks: readonly TaskAssignment[]): Promise<boolean> {
  const { queue, researchId, clock } = run.deps;
  const missing = tasks.filter((t) => queue.get(t.task_id) === undefined);
  if (missing.length > 0) {
    const answer = await queue.submit(missing.map(toTaskSpec));
    if (answer.status === 'throttled') {
      clock.setTimeout(() => void run.kick(), answer.retryAfterMs);
      return false;
    }
  }
  const ids = tasks.map((t) => t.task_id);
  const record = run.record;
  const fresh = ids.filter((id) => !record.tasks.includes(id));
  const phaseFresh = ids.filter((id) => !record.phase_tasks.includes(id));
  if (fresh.length > 0 || phaseFresh.length > 0) {
    await run.update((r) => ({ ...r, tasks: [...r.tasks, ...fresh], phase_tasks: [...r.phase_tasks, ...phaseFresh] }));
  }
  for (const task of tasks.filter((t) => fresh.includes(t.task_id))) {
    run.deps.send(
      researchMessage({
        researchId,
        type: 'task_assignment',
        from: 'SUPERVISOR',
        to: task.agent_type,
        data: task,
        taskId: task.task_id,
        priority: task.priority,
        at: clock.now(),
        key: task.task_id,
      }),
    );
  }
  return true;
}

/** Done when every task is completed (or its partials were accepted); else the first failure, or waiting. */
export function tasksOutcome(run: ResearchRun, ids: readonly string[]): 'done' | TaskView | 'waiting' {
  const accepted = new Set(run.record.accepted_partial);
  let waiting = false;
  for (const id of ids) {
    const view = run.deps.queue.get(id);
    if (!view) return 'waiting';
    if (view.status === 'completed' || accepted.has(id)) continue;
    if (view.status === 'failed') return view;
    waiting = true;
  }
  return waiting ? 'waiting' : 'done';
}

const outcomeOf = (status: ReturnType<typeof tasksOutcome>, event: ResearchEventType = 'phase.done'): PhaseOutcome =>
  status === 'done' ? { kind: 'done', event } : status === 'waiting' ? WAITING : { kind: 'failed', task: status };

/** One step of the phase the goal is in. */
export async function runPhaseStep(run: ResearchRun, phase: ResearchPhase): Promise<PhaseOutcome> {
  const { iteration: n } = run.record;
  const { goal, memory, queue } = run.deps;
  switch (phase) {
    case 'generating': {
      const task = assignment(`i${n}-gen`, 'GENERATION', {
        kind: 'generate',
        iteration: n,
        count: goal.hypotheses_per_iteration,
      });
      if (!(await ensureTasks(run, [task]))) return WAITING;
      return outcomeOf(tasksOutcome(run, [task.task_id]));
    }
    case 'reviewing': {
      const reviews = await reviewsByHypothesis(memory);
      const consumable = new Set((await memory.consumable('hypothesis')).map((e) => e.entry_id));
      const needed = (await allHypotheses(memory))
        .map((h) => h.entry.entry_id)
        .filter((id) => consumable.has(id) && !reviews.has(id))
        .map((id) => assignment(`rev-${id}`, 'REFLECTION', { kind: 'review', hypothesis_id: id }));
      if (!(await ensureTasks(run, needed))) return WAITING;
      return outcomeOf(tasksOutcome(run, [...run.record.phase_tasks, ...needed.map((t) => t.task_id)]));
    }
    case 'tournament': {
      const request = assignment(`i${n}-rank`, 'RANKING', { kind: 'tournament_request', iteration: n });
      if (!(await ensureTasks(run, [request]))) return WAITING;
      const status = tasksOutcome(run, [request.task_id]);
      if (status !== 'done') return outcomeOf(status);
      const result = queue.get(request.task_id)!.result as AgentResult;
      const batch = tournamentTasks(n, result.tournament!, run.deps.k);
      if (!(await ensureTasks(run, batch))) return WAITING;
      return outcomeOf(
        tasksOutcome(
          run,
          batch.filter((t) => t.input_data.kind === 'debate').map((t) => t.task_id),
        ),
      );
    }
    case 'ranking': {
      const id = applyTaskId(run.record);
      const existing = queue.get(id);
      if (!existing) {
        const rank = queue.get(`i${n}-rank`)!.result as AgentResult;
        const apply = tournamentTasks(n, rank.tournament!, run.deps.k).at(-1)!;
        if (!(await ensureTasks(run, [{ ...apply, task_id: id, dependencies: [] }]))) return WAITING;
      }
      return outcomeOf(tasksOutcome(run, [id]));
    }
    case 'evolving': {
      const task = assignment(`i${n}-evo`, 'EVOLUTION', { kind: 'evolve', iteration: n, count: run.deps.evolveCount });
      if (!(await ensureTasks(run, [task]))) return WAITING;
      return outcomeOf(tasksOutcome(run, [task.task_id]));
    }
    case 'meta_reviewing': {
      const task = assignment(`i${n}-meta`, 'META_REVIEW', { kind: 'meta_review', iteration: n });
      if (!(await ensureTasks(run, [task]))) return WAITING;
      const status = tasksOutcome(run, [task.task_id]);
      if (status !== 'done') return outcomeOf(status);
      broadcastFeedback(run, queue.get(task.task_id)!.result as AgentResult);
      return n < goal.iterations
        ? {
            kind: 'done',
            event: 'iteration.done',
            change: ({ apply_task: _done, ...r }) => ({ ...r, iteration: r.iteration + 1 }),
          }
        : { kind: 'done', event: 'research.done' };
    }
  }
}

/** The Elo update task of the iteration (a new one after each rollback). */
export function applyTaskId(record: ResearchRecord): string {
  return record.apply_task ?? `i${record.iteration}-apply`;
}

/** Pattern 2: the SUPERVISOR announces META_REVIEW's feedback to every agent (only it broadcasts). */
function broadcastFeedback(run: ResearchRun, result: AgentResult): void {
  const { researchId, clock } = run.deps;
  const n = run.record.iteration;
  const feedbackIds = result.entry_ids.filter((id) => id.startsWith(`i${n}-`));
  if (feedbackIds.length === 0) return;
  run.deps.send(
    researchMessage({
      researchId,
      type: 'feedback_broadcast',
      from: 'SUPERVISOR',
      to: 'broadcast',
      data: {
        feedback_type: 'meta_review',
        target_agents: ['GENERATION', 'REFLECTION', 'RANKING', 'EVOLUTION'],
        feedback_entry_ids: feedbackIds,
        feedback_content: `Meta-review of iteration ${n}: read your feedback entry before your next task.`,
        incorporation_strategy: 'prompt_augmentation',
      },
      priority: 6,
      at: clock.now(),
      key: `feedback-${n}`,
    }),
  );
}
