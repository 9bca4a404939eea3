/**
 * The SUPERVISOR of one research goal: its iteration loop on the task queue. It reconciles the
 * goal's durable state (its record, context memory and the queue) into the next step each time a
 * task changes, so a restarted process picks the goal up where the disk left it.
 */
import { createActor, transition, type Actor, type InspectionEvent } from 'xstate';
import type { ContextMemory } from '../../actors/coscientist/memory/context-memory.ts';
import type { ServiceClock } from '../../actors/runtime/clock.ts';
import type { TaskQueue } from '../../actors/runtime/task-queue.ts';
import type { ResearchEventType, ResearchPhase } from '../../protocol/coscientist/research-transitions.ts';
import type { CoscientistMessage } from '../../protocol/coscientist/message.ts';
import type { GoalContent } from '../../protocol/coscientist/memory-content.ts';
import { researchMachine, researchSnapshotOf } from './research.ts';
import { initialRecord, RECORD_KEY, ResearchRecordSchema, type ResearchRecord } from './research-record.ts';
import { runPhaseStep, type PhaseOutcome } from './research-phases.ts';
import { handleFailure, cancelUnstarted } from './research-failures.ts';
import { checkConsistency } from './research-consistency.ts';

/** What a goal's SUPERVISOR works with. */
export interface ResearchRunDeps {
  researchId: string;
  goal: GoalContent;
  memory: ContextMemory;
  queue: TaskQueue;
  leased: Set<string>;
  /** Hands a message to the runtime supervisor (validated, routed, journaled). */
  send(message: CoscientistMessage): void;
  clock: ServiceClock;
  /** Elo's K (32). */
  k: number;
  /** New hypotheses EVOLUTION writes per iteration (2). */
  evolveCount: number;
  /** Told each change of the goal's state, and what went wrong in the loop. */
  onState?: (record: ResearchRecord) => void;
  onError?: (error: unknown) => void;
  /** Opened only to be read: no loop runs (nothing is submitted, sent or written). */
  passive?: boolean;
  /** Given: the goal's `research` statechart runs as an actor too, inspected (the live visualizer). */
  inspect?: (event: InspectionEvent) => void;
}

/** Resolves when a goal reached a final state. */
const FINAL = new Set(['completed', 'stopped']);

/** One goal's SUPERVISOR; open it with {@link ResearchRun.open}. */
export class ResearchRun {
  #record: ResearchRecord;
  #version: number;
  #chain: Promise<void> = Promise.resolve();
  #unsubscribe: (() => void) | undefined;
  #settled: { promise: Promise<void>; resolve: () => void };
  #closed = false;
  /** The `research` statechart, live, when inspected: it takes each event the record takes. */
  #actor: Actor<typeof researchMachine> | undefined;

  private constructor(
    readonly deps: ResearchRunDeps,
    record: ResearchRecord,
    version: number,
  ) {
    this.#record = record;
    this.#version = version;
    let resolve!: () => void;
    this.#settled = { promise: new Promise<void>((r) => (resolve = r)), resolve };
    if (FINAL.has(record.state)) resolve();
    if (deps.inspect && !deps.passive) {
      const snapshot = researchSnapshotOf(record.state, { escalatedFrom: record.escalated_from });
      this.#actor = createActor(researchMachine, { snapshot, inspect: deps.inspect, clock: deps.clock }).start();
    }
  }

  /** Reads the goal's record (writing the first one for a new goal) and starts its loop. */
  static async open(deps: ResearchRunDeps): Promise<ResearchRun> {
    const found = await deps.memory.state.get(RECORD_KEY);
    let run: ResearchRun;
    if (found) run = new ResearchRun(deps, ResearchRecordSchema.parse(found.value), found.version);
    else {
      const record = initialRecord();
      const written = await deps.memory.state.write('SUPERVISOR', [
        { key: RECORD_KEY, value: record, expectedVersion: 0 },
      ]);
      if (!written.ok) return ResearchRun.open(deps);
      run = new ResearchRun(deps, record, written.entries[0]!.version);
    }
    if (deps.passive) return run;
    run.#unsubscribe = deps.queue.subscribe((event) => {
      if (event.type !== 'task.started') deps.leased.delete(event.taskId);
      run.kick();
    });
    run.kick();
    return run;
  }

  /** The goal's record as it stands (frozen copy). */
  get record(): ResearchRecord {
    return structuredClone(this.#record);
  }

  /** Resolves once the goal is completed or stopped. */
  settled(): Promise<void> {
    return this.#settled.promise;
  }

  /** Schedules a reconciliation (one at a time). */
  kick(): Promise<void> {
    this.#chain = this.#chain.then(() => this.#advance()).catch((error: unknown) => this.deps.onError?.(error));
    return this.#chain;
  }

  /** The scientist answered (through guidance): a goal waiting for them resumes, retrying the escalated task. */
  answer(): Promise<void> {
    this.#chain = this.#chain.then(async () => {
      if (this.#record.state !== 'awaiting_scientist') return;
      const task = this.#record.escalated_task;
      const resumed = await this.#apply('scientist.answered', (r) => {
        const { question: _q, escalated_task: _t, ...rest } = r;
        return { ...rest, retried: {} };
      });
      if (resumed && task && this.deps.queue.get(task)?.status === 'failed') await this.deps.queue.retry(task);
      await this.#advance();
    });
    return this.#chain.catch((error: unknown) => this.deps.onError?.(error));
  }

  /** Stops after the tasks in flight finish or time out; what they wrote is kept. */
  stop(): Promise<void> {
    this.#chain = this.#chain.then(async () => {
      if (FINAL.has(this.#record.state) || this.#record.state === 'stopping') return;
      await this.#apply('research.stop');
      await cancelUnstarted(this);
      await this.#advance();
    });
    return this.#chain.catch((error: unknown) => this.deps.onError?.(error));
  }

  /** Resolves once the reconciliations scheduled so far are done. */
  idle(): Promise<void> {
    return this.#chain;
  }

  close(): void {
    this.#closed = true;
    this.#unsubscribe?.();
    this.#actor?.stop();
  }

  /** Moves the goal by `event` (if the research machine takes it there) and persists the record. */
  async apply(
    event: ResearchEventType,
    change: (record: ResearchRecord) => ResearchRecord = (r) => r,
  ): Promise<boolean> {
    return this.#apply(event, change);
  }

  /** Persists a change of the record that moves no state (tasks submitted, retries counted). */
  async update(change: (record: ResearchRecord) => ResearchRecord): Promise<void> {
    await this.#persist(change(this.#record));
  }

  async #apply(
    event: ResearchEventType,
    change: (record: ResearchRecord) => ResearchRecord = (r) => r,
  ): Promise<boolean> {
    const snapshot = researchSnapshotOf(this.#record.state, { escalatedFrom: this.#record.escalated_from });
    if (!snapshot.can({ type: event })) return false;
    const [next] = transition(researchMachine, snapshot, { type: event });
    const moved = change({ ...this.#record, state: next.value as ResearchRecord['state'] });
    const escalatedFrom = next.context.escalatedFrom;
    const record: ResearchRecord = { ...moved, ...(escalatedFrom ? { escalated_from: escalatedFrom } : {}) };
    if (!escalatedFrom) delete record.escalated_from;
    if (event === 'phase.done' || event === 'iteration.done') record.phase_tasks = [];
    await this.#persist(record);
    this.#actor?.send({ type: event });
    this.deps.onState?.(this.record);
    if (FINAL.has(record.state)) this.#settled.resolve();
    return true;
  }

  async #persist(record: ResearchRecord): Promise<void> {
    const clean = ResearchRecordSchema.parse(JSON.parse(JSON.stringify(record)));
    const result = await this.deps.memory.state.write('SUPERVISOR', [
      { key: RECORD_KEY, value: clean, expectedVersion: this.#version },
    ]);
    if (!result.ok)
      throw new Error(
        `The record of goal ${this.deps.researchId} changed under its SUPERVISOR: only one SUPERVISOR may run a goal.`,
      );
    this.#record = clean;
    this.#version = result.entries[0]!.version;
  }

  /** Runs phase steps while they make progress. */
  async #advance(): Promise<void> {
    for (let guard = 0; guard < 64 && !this.#closed; guard++) {
      const { state } = this.#record;
      if (FINAL.has(state) || state === 'awaiting_scientist') return;
      if (state === 'stopping') {
        await cancelUnstarted(this);
        const running = this.#record.tasks.some((id) => this.deps.queue.get(id)?.status === 'running');
        if (running || !(await this.#apply('tasks.drained'))) return;
        continue;
      }
      const outcome: PhaseOutcome = await runPhaseStep(this, state as ResearchPhase);
      if (outcome.kind === 'waiting') return;
      if (outcome.kind === 'failed') {
        if (!(await handleFailure(this, outcome.task))) return;
        continue;
      }
      if (state === 'ranking' && !(await checkConsistency(this))) continue;
      await this.#apply(outcome.event, outcome.change);
      await checkConsistency(this);
    }
  }
}
