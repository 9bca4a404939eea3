import type { AgentResult, PartialItem } from '../../actors/coscientist/agents/agent-context.ts';
import type { CoscientistMessage } from '../../protocol/coscientist/message.ts';
import type { TaskView } from '../../protocol/runtime/task-spec.ts';
import { researchMessage } from './research-messages.ts';

/**
 * Pattern 1, step 7: what an agent sends the SUPERVISOR when its task ends: the `task_result`
 * (completed, failed, or timed out with its partial entries' ids), and for a tournament request
 * RANKING's `tournament_request`. Ids are derived from the task and its attempt, so an end sent
 * again after a restart is recognised.
 *
 * @example
 * taskEndMessages(researchId, task, { result }, clock.now()).forEach(send);
 */
export function taskEndMessages(
  researchId: string,
  task: TaskView,
  outcome: { result?: AgentResult; error?: unknown; partials?: PartialItem[] },
  at: number,
): CoscientistMessage[] {
  const agent = task.agent_type as CoscientistMessage['header']['source_agent'];
  const failed = outcome.error !== undefined;
  const timedOut = failed && (outcome.error as { name?: string })?.name === 'AbortError';
  const error = failed
    ? { code: timedOut ? 'timeout' : 'error', message: String((outcome.error as Error)?.message ?? outcome.error) }
    : undefined;
  const base = { researchId, from: agent, to: 'SUPERVISOR' as const, taskId: task.task_id, at };
  const messages = [
    researchMessage({
      ...base,
      type: 'task_result',
      data: {
        task_id: task.task_id,
        status: failed ? (timedOut ? 'timed_out' : 'failed') : 'completed',
        entry_ids: outcome.result?.entry_ids ?? outcome.partials?.map((p) => p.entry_id) ?? [],
        ...(error ? { error } : {}),
      },
      priority: 4,
      key: `${task.task_id}-result-${task.attempts}`,
    }),
  ];
  if (outcome.result?.tournament) {
    messages.push(
      researchMessage({
        ...base,
        from: 'RANKING',
        type: 'tournament_request',
        data: outcome.result.tournament,
        priority: 4,
        key: `${task.task_id}-tournament`,
      }),
    );
  }
  return messages;
}
