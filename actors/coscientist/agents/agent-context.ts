import type { TournamentRequest, WorkerAgent } from '../../../protocol/coscientist/payloads.ts';
import type { ResourceLocks } from '../../runtime/resource-locks.ts';
import type { DomainKnowledge } from '../knowledge/knowledge-types.ts';
import type { ContextMemory } from '../memory/context-memory.ts';

/** What an agent instance gets for one task: the goal's memory and knowledge, the shared tools' locks, and its task's controls. */
export interface AgentContext {
  goalId: string;
  taskId: string;
  memory: ContextMemory;
  knowledge: DomainKnowledge;
  /** The shared tools (`literature_search`, `model_quota`): ask, use within the lease, release. */
  locks: ResourceLocks;
  /** Aborted when the task's time limit passes: stop, keeping what was reported. */
  signal: AbortSignal;
  /** Keeps a finished item (a whole hypothesis, a review) should the task be interrupted. */
  reportPartial(item: PartialItem): void;
  /** Whether agents read meta-review feedback (false only in the ablation of the feedback test). */
  feedback: boolean;
  /** Yields to the clock between items (a zero-latency brain yields nothing). */
  pause(): Promise<void>;
}

/** An item a timed-out task leaves, which the SUPERVISOR writes as a partial entry. */
export interface PartialItem {
  entry_type: 'hypothesis' | 'review' | 'debate';
  entry_id: string;
  content: Record<string, unknown>;
  dependencies: string[];
}

/** What an agent's task produced: the entries it wrote, and for a tournament request, the request. */
export interface AgentResult {
  entry_ids: string[];
  tournament?: TournamentRequest;
}

/** One agent type's work: a fresh call per task (workers instantiate the agent per task). */
export type AgentBrain = (input: Record<string, unknown>, context: AgentContext) => Promise<AgentResult>;

/** Every worker agent's brain. */
export type AgentBrains = Readonly<Record<WorkerAgent, AgentBrain>>;
