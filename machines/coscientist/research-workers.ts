import type {
  AgentBrains,
  AgentContext,
  AgentResult,
  PartialItem,
} from '../../actors/coscientist/agents/agent-context.ts';
import type { DomainKnowledge } from '../../actors/coscientist/knowledge/knowledge-types.ts';
import type { ContextMemory } from '../../actors/coscientist/memory/context-memory.ts';
import type { ResourceLocks } from '../../actors/runtime/resource-locks.ts';
import type { TaskWorkerConfig } from '../../actors/runtime/task-worker-pool.ts';
import { WorkerAgentSchema, type WorkerAgent } from '../../protocol/coscientist/payloads.ts';
import type { TaskView } from '../../protocol/runtime/task-spec.ts';

/** Workers per agent type (a bounded pool each) and their time limit. */
export interface WorkerLimits {
  concurrency: Readonly<Record<WorkerAgent, number>>;
  timeLimitMs: number;
}

/** The default pools: debates run widest (a tournament's debates in parallel). */
export const DEFAULT_LIMITS: WorkerLimits = {
  concurrency: { GENERATION: 2, REFLECTION: 4, RANKING: 8, EVOLUTION: 2, META_REVIEW: 1 },
  timeLimitMs: 60_000,
};

/** What the workers of one goal share. */
export interface WorkerDeps {
  researchId: string;
  memory: ContextMemory;
  knowledge: DomainKnowledge;
  locks: ResourceLocks;
  brains: AgentBrains;
  limits: WorkerLimits;
  feedback: boolean;
  pause: () => Promise<void>;
  /** Tasks holding a lease (taken when the agent starts, given back when the queue records the end). */
  leased: Set<string>;
  /** Pattern 1, step 7: the agent signals how its task ended. */
  signal(task: TaskView, outcome: { result?: AgentResult; error?: unknown; partials?: PartialItem[] }): void;
  /** A test's fault: an error to throw instead of running the agent. */
  fault?: (task: TaskView) => Error | undefined;
}

/**
 * The task queue's workers for one goal: per agent type a bounded pool whose executor
 * instantiates the agent for each task (a fresh call of its brain with the task's own context),
 * holds a lease while it runs, and signals the result or failure to the SUPERVISOR.
 *
 * @example
 * const queue = await openTaskQueue({ journal, name: researchId, workers: researchWorkers(deps) });
 */
export function researchWorkers(deps: WorkerDeps): Record<WorkerAgent, TaskWorkerConfig> {
  const workerOf = (agent: WorkerAgent): TaskWorkerConfig => ({
    concurrency: deps.limits.concurrency[agent],
    timeLimitMs: deps.limits.timeLimitMs,
    retry: { maxAttempts: 2, backoff: { baseMs: 50, maxMs: 1_000 } },
    executor: async (task, execution) => {
      const partials: PartialItem[] = [];
      deps.leased.add(task.task_id);
      try {
        const fault = deps.fault?.(task);
        if (fault) throw fault;
        const context: AgentContext = {
          goalId: deps.researchId,
          taskId: task.task_id,
          memory: deps.memory,
          knowledge: deps.knowledge,
          locks: deps.locks,
          signal: execution.signal,
          reportPartial: (item) => {
            partials.push(item);
            execution.reportPartial(item);
          },
          feedback: deps.feedback,
          pause: deps.pause,
        };
        const result = await deps.brains[agent](task.input_data as Record<string, unknown>, context);
        deps.signal(task, { result });
        return result;
      } catch (error) {
        deps.signal(task, { error, partials });
        throw error;
      }
    },
  });
  return Object.fromEntries(WorkerAgentSchema.options.map((agent) => [agent, workerOf(agent)])) as Record<
    WorkerAgent,
    TaskWorkerConfig
  >;
}
