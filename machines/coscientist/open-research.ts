import type { InspectionEvent } from 'xstate';
import type { AgentBrains } from '../../actors/coscientist/agents/agent-context.ts';
import { GOAL_ENTRY, readGoal } from '../../actors/coscientist/agents/memory-reads.ts';
import { domainKnowledge } from '../../actors/coscientist/knowledge/knowledge-base.ts';
import { ContextMemory } from '../../actors/coscientist/memory/context-memory.ts';
import { MEMORY_SCHEMA } from '../../actors/coscientist/memory/memory-schema.ts';
import type { ServiceClock } from '../../actors/runtime/clock.ts';
import type { Journal } from '../../actors/runtime/journal.ts';
import type { ResourceLocks } from '../../actors/runtime/resource-locks.ts';
import { openSharedState } from '../../actors/runtime/shared-state/open-shared-state.ts';
import { openTaskQueue, type TaskQueue } from '../../actors/runtime/task-queue.ts';
import type { TaskLogRecord } from '../../actors/runtime/task-queue-log.ts';
import type { GoalContent } from '../../protocol/coscientist/memory-content.ts';
import type { CoscientistMessage } from '../../protocol/coscientist/message.ts';
import type { JournalRecord } from '../../protocol/runtime/ack-record.ts';
import type { TaskView } from '../../protocol/runtime/task-spec.ts';
import { detachedSupervisor, type GoalRouter } from './goal-supervisor.ts';
import { taskEndMessages } from './task-end-messages.ts';
import { ResearchRun } from './research-run.ts';
import type { ResearchRecord } from './research-record.ts';
import { DEFAULT_LIMITS, researchWorkers, type WorkerLimits } from './research-workers.ts';
import { TaskTimesBook } from './task-times.ts';

/** What every goal of the system shares. */
export interface ResearchServices {
  /** Context memory (shared state), the task queue and the routed messages: three journals. */
  memoryJournal: Journal<unknown>;
  taskJournal: Journal<TaskLogRecord>;
  messageJournal: Journal<JournalRecord>;
  clock: ServiceClock;
  locks: ResourceLocks;
  brains: AgentBrains;
  limits?: WorkerLimits;
  /** Agents read meta-review feedback (false: the ablation). */
  feedback?: boolean;
  k?: number;
  evolveCount?: number;
  /** Yields between an agent's items (zero-latency brains: a resolved promise). */
  pause?: () => Promise<void>;
  fault?: (task: TaskView) => Error | undefined;
  onState?: (researchId: string, record: ResearchRecord) => void;
  onMessage?: (researchId: string, message: CoscientistMessage, delivered: boolean) => void;
  onError?: (error: unknown) => void;
  /** Where each goal's supervisor comes from (the run host's); one of its own by default. */
  route?: GoalRouter;
  /** Every inspection event of a goal's `research` statechart (the live visualizer). */
  inspect?: (researchId: string, event: InspectionEvent) => void;
}

/** One goal, open: its memory, queue, supervisor and SUPERVISOR loop. */
export interface OpenResearch {
  researchId: string;
  goal: GoalContent;
  memory: ContextMemory;
  queue: TaskQueue;
  run: ResearchRun;
  /** Messages handed to the supervisor, and those it journaled and delivered. */
  messages: { sent: number; delivered: number; rejected: number };
  /** Each task's assignment and finish times, from its journaled messages. */
  times: TaskTimesBook;
  close(): Promise<void>;
}

/**
 * Opens a goal: a new one (with `goal`, written to context memory first) or one on disk (its
 * memory, queue and routed messages are read back, and its SUPERVISOR reconciles from them).
 * `readOnly` opens a goal that waits for nobody (completed, stopped, waiting for the scientist)
 * only to be read: no supervisor, no loop (nothing is sent or written).
 *
 * @example
 * const research = await openResearch('r-1', services, goal); await research.run.settled();
 */
export async function openResearch(
  researchId: string,
  services: ResearchServices,
  goal?: GoalContent,
  options: { readOnly?: boolean } = {},
): Promise<OpenResearch> {
  const { clock } = services;
  const state = openSharedState({
    journal: services.memoryJournal,
    schema: MEMORY_SCHEMA,
    scopes: { research: researchId },
    clock,
  });
  const memory = new ContextMemory(state, () => new Date(clock.now()).toISOString());
  if (goal) await memory.create('SUPERVISOR', 'goal', goal, { entryId: GOAL_ENTRY });
  const content = await readGoal(memory);
  const journaled = await services.messageJournal.read(researchId);
  const times = new TaskTimesBook();
  const journaledIds: string[] = [];
  for (const { data } of journaled) {
    if (!('envelope' in (data as object))) continue;
    const envelope = (data as unknown as { envelope: CoscientistMessage }).envelope;
    journaledIds.push(envelope.header.message_id);
    times.add(envelope);
  }
  const messages = { sent: 0, delivered: 0, rejected: 0 };
  const routed = options.readOnly
    ? undefined
    : (services.route ?? detachedSupervisor({ journal: services.messageJournal, clock }))(researchId, journaledIds);
  routed?.supervisor.on('supervisor.routed', ({ records }) => {
    for (const record of records) {
      messages.delivered++;
      const message = record.envelope as CoscientistMessage;
      times.add(message);
      services.onMessage?.(researchId, message, true);
    }
  });
  routed?.supervisor.on('supervisor.rejected', (event) => {
    if (event.error.code === 'duplicate_message')
      messages.delivered++; // journaled before a restart
    else {
      messages.rejected++;
      services.onError?.(
        new Error(`Goal ${researchId}: a message was refused (${event.error.code}): ${event.error.message}`),
      );
    }
  });
  let closed = false;
  const send = (message: CoscientistMessage) => {
    // A worker aborted by close still signals its end: the goal reopened will send it again.
    if (!routed || closed) return;
    messages.sent++;
    routed.supervisor.send({ type: 'supervisor.send', envelope: message });
  };
  const leased = new Set<string>();
  const workers = researchWorkers({
    researchId,
    memory,
    knowledge: domainKnowledge(content.domain),
    locks: services.locks,
    brains: services.brains,
    limits: services.limits ?? DEFAULT_LIMITS,
    feedback: services.feedback ?? true,
    pause: services.pause ?? (() => Promise.resolve()),
    leased,
    ...(services.fault ? { fault: services.fault } : {}),
    signal: (task, outcome) => taskEndMessages(researchId, task, outcome, clock.now()).forEach(send),
  });
  const queue = await openTaskQueue({
    journal: services.taskJournal,
    name: researchId,
    workers,
    clock,
    ...(services.onError ? { onError: services.onError } : {}),
  });
  const run = await ResearchRun.open({
    researchId,
    goal: content,
    memory,
    queue,
    leased,
    send,
    clock,
    k: services.k ?? 32,
    evolveCount: services.evolveCount ?? 2,
    onState: (record) => services.onState?.(researchId, record),
    passive: options.readOnly === true,
    ...(services.inspect ? { inspect: (event: InspectionEvent) => services.inspect!(researchId, event) } : {}),
    ...(services.onError ? { onError: services.onError } : {}),
  });
  return {
    researchId,
    goal: content,
    memory,
    queue,
    run,
    messages,
    times,
    async close() {
      closed = true;
      run.close();
      queue.close();
      routed?.release();
      await state.close();
    },
  };
}
