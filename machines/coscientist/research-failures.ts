import type { PartialItem } from '../../actors/coscientist/agents/agent-context.ts';
import { HypothesisContentSchema } from '../../protocol/coscientist/memory-content.ts';
import type { WorkerAgent } from '../../protocol/coscientist/payloads.ts';
import type { TaskView } from '../../protocol/runtime/task-spec.ts';
import type { ResearchRun } from './research-run.ts';

/** Retries the SUPERVISOR makes itself before it escalates a task to the scientist. */
export const SUPERVISOR_RETRIES = 1;

/**
 * The Task Failure and Communication Timeout protocols, as the SUPERVISOR decides them:
 * - a timed-out task that finished whole hypotheses: they are written as partial entries and
 *   promoted (a hypothesis stands alone), and the task counts as done;
 * - otherwise a failed task is retried once (`retry`: its blocked dependents wait for it again);
 * - then it is escalated: its error is written to context memory and the goal waits for the
 *   scientist (`awaiting_scientist`, with the question), whose guidance resumes it.
 * Returns whether the loop may go on (false once escalated).
 */
export async function handleFailure(run: ResearchRun, task: TaskView): Promise<boolean> {
  const { memory, queue } = run.deps;
  const agent = task.agent_type as WorkerAgent;
  const partials = task.partials as PartialItem[];
  if (task.error?.code === 'timeout' && partials.length > 0) {
    const entries = [];
    for (const item of partials) {
      entries.push(
        await memory.create(agent, item.entry_type, item.content, {
          entryId: item.entry_id,
          dependencies: item.dependencies,
          partial: true,
        }),
      );
    }
    const whole = entries.filter(
      (e) => e.entry_type === 'hypothesis' && HypothesisContentSchema.safeParse(e.content).success,
    );
    if (whole.length > 0 && whole.length === entries.length) {
      for (const entry of whole) if (entry.partial && !entry.promoted) await memory.promote(entry);
      await run.update((r) => ({ ...r, accepted_partial: [...r.accepted_partial, task.task_id] }));
      return true;
    }
  }
  const retried = run.record.retried[task.task_id] ?? 0;
  if (retried < SUPERVISOR_RETRIES) {
    await run.update((r) => ({ ...r, retried: { ...r.retried, [task.task_id]: retried + 1 } }));
    await queue.retry(task.task_id);
    return true;
  }
  const n = run.record.rollbacks + run.record.tasks.length;
  await memory.create(
    agent,
    'error',
    { task_id: task.task_id, code: task.error?.code ?? 'error', message: task.error?.message ?? 'failed' },
    { entryId: `err-${task.task_id}-${n}` },
  );
  const question =
    `Task ${task.task_id} (${agent}) failed after ${task.attempts} attempt(s) and a retry: ` +
    `${task.error?.message ?? 'no reason given'}. Its dependents are blocked. ` +
    'Answer with guidance (POST /research/:id/guidance) to retry it, or stop the goal.';
  await run.apply('task.escalated', (r) => ({ ...r, question, escalated_task: task.task_id }));
  return false;
}

/** A stopped goal cancels every task that has not started (its dependents with it); running ones finish or time out. */
export async function cancelUnstarted(run: ResearchRun): Promise<void> {
  const { queue } = run.deps;
  for (const id of [...run.record.tasks].reverse()) {
    const status = queue.get(id)?.status;
    if (status === 'waiting' || status === 'ready' || status === 'blocked' || status === 'retrying') {
      await queue.fail(id, 'cancelled: the goal was stopped before the task ran');
    }
  }
}
