import type { TaskError, TaskSpec, TaskStatus, TaskView } from '../../protocol/runtime/task-spec.ts';
import { ReadyQueue } from './ready-queue.ts';

/**
 * What the task queue journals, one record per change (its partition is the queue's history).
 * Replaying the records through {@link TaskBook.apply} rebuilds the queue; `snapshot` starts a
 * compacted generation with every task as it stood.
 */
export type TaskQueueRecord =
  | { t: 'submitted'; tasks: TaskSpec[] }
  | { t: 'started'; task_id: string; attempt: number }
  | { t: 'completed'; task_id: string; result: unknown }
  | { t: 'attempt_failed'; task_id: string; error: TaskError; partials: unknown[]; retry_at: number }
  | { t: 'failed'; task_id: string; error: TaskError; partials: unknown[] }
  | { t: 'retried'; task_id: string }
  | { t: 'reassigned'; task_id: string; agent_type: string }
  | { t: 'snapshot'; tasks: TaskSnapshot[] };

/** One task inside a `snapshot` record; `ready_seq` keeps the FIFO order of ready tasks. */
export interface TaskSnapshot extends Omit<TaskView, 'partials'> {
  partials: unknown[];
  ready_seq?: number;
}

interface TaskEntry extends TaskSnapshot {
  /** Clock time it last became ready (for the queue's latency figures). */
  ready_at?: number;
}

const FINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed']);

/**
 * The task queue's state and nothing else (no timers, no I/O): every task by id, who depends on
 * whom, and one {@link ReadyQueue} per agent type. Each journal record is applied by one method, live
 * and on replay alike, so the two cannot drift apart. Statuses follow from dependencies: a task is
 * `blocked` while a dependency (or one of its dependencies, transitively) is `failed`, `waiting`
 * while one is not completed, `ready` otherwise.
 */
export class TaskBook {
  readonly #tasks = new Map<string, TaskEntry>();
  readonly #dependents = new Map<string, string[]>();
  readonly #lines = new Map<string, ReadyQueue>();
  #readySeq = 0;
  #unfinished = 0;

  constructor(
    private readonly now: () => number,
    /** Told each time a task joins its ready line. */
    private readonly onReady: (agentType: string) => void = () => {},
  ) {}

  /** Applies one journaled change. */
  apply(record: TaskQueueRecord): void {
    switch (record.t) {
      case 'submitted':
        for (const spec of record.tasks) this.#add({ ...spec, status: 'waiting', attempts: 0, partials: [] });
        for (const spec of record.tasks) this.#settle(spec.task_id);
        return;
      case 'snapshot':
        for (const task of record.tasks) this.#add({ ...task });
        for (const task of [...this.#tasks.values()]
          .filter((t) => t.status === 'ready')
          .sort((a, b) => (a.ready_seq ?? 0) - (b.ready_seq ?? 0)))
          this.#enqueue(task);
        return;
      case 'started': {
        const task = this.#get(record.task_id);
        this.#line(task.agent_type).delete(task.task_id);
        Object.assign(task, { status: 'running', attempts: record.attempt, partials: [] });
        delete task.retry_at;
        return;
      }
      case 'completed': {
        const task = this.#get(record.task_id);
        delete task.error;
        this.#finish(record.task_id, { status: 'completed', result: record.result });
        return;
      }
      case 'attempt_failed':
        Object.assign(this.#get(record.task_id), {
          status: 'retrying',
          error: record.error,
          partials: record.partials,
          retry_at: record.retry_at,
        });
        return;
      case 'failed': {
        const task = this.#get(record.task_id);
        this.#line(task.agent_type).delete(task.task_id);
        this.#finish(record.task_id, { status: 'failed', error: record.error, partials: record.partials });
        return;
      }
      case 'retried':
        this.#reopen(this.#get(record.task_id));
        return;
      case 'reassigned': {
        const task = this.#get(record.task_id);
        const wasReady = this.#line(task.agent_type).delete(task.task_id);
        task.agent_type = record.agent_type;
        if (FINAL.has(task.status)) this.#reopen(task);
        else if (wasReady) this.#enqueue(task);
        return;
      }
      default:
        throw new Error(`Unknown task queue record ${JSON.stringify(record)}: the journal's records are parsed first.`);
    }
  }

  /** A `retrying` task whose backoff ended joins its line again (time-driven, not journaled). */
  requeue(id: string): void {
    const task = this.#get(id);
    if (task.status !== 'retrying') return;
    delete task.retry_at;
    this.#enqueue(task);
  }

  /** Takes the next task to start for `agentType`: most urgent, then oldest. */
  next(agentType: string): string | undefined {
    return this.#lines.get(agentType)?.shift();
  }

  has(id: string): boolean {
    return this.#tasks.has(id);
  }

  /** Status, agent type, attempts and when it became ready (live fields: do not change them). */
  peek(id: string): Readonly<TaskEntry> | undefined {
    return this.#tasks.get(id);
  }

  /** A frozen copy of a task, or undefined for an unknown id. */
  view(id: string): TaskView | undefined {
    const task = this.#tasks.get(id);
    if (!task) return undefined;
    const { ready_seq: _seq, ready_at: _at, ...view } = task;
    return Object.freeze({
      ...view,
      dependencies: [...view.dependencies],
      partials: Object.freeze([...view.partials]),
    });
  }

  /** Every task as it stands, for a `snapshot` record. */
  snapshot(): TaskSnapshot[] {
    return [...this.#tasks.values()].map(({ ready_at: _at, ...task }) => ({ ...task }));
  }

  /** Ready tasks of `agentType` waiting for a worker. */
  readyCount(agentType: string): number {
    return this.#lines.get(agentType)?.size ?? 0;
  }

  /**
   * Forgets the oldest completed tasks beyond the newest `keep` whose dependents all completed
   * too, so that memory and snapshots follow the live work, not the history. A forgotten task
   * counts as completed for anything that still names it.
   */
  forgetCompleted(keep: number): number {
    const candidates: string[] = [];
    for (const [id, task] of this.#tasks) {
      if (task.status !== 'completed') continue;
      const dependents = this.#dependents.get(id) ?? [];
      const settled = dependents.every((other) => (this.#tasks.get(other)?.status ?? 'completed') === 'completed');
      if (settled) candidates.push(id);
    }
    const forgotten = candidates.slice(0, Math.max(0, candidates.length - keep));
    for (const id of forgotten) {
      this.#tasks.delete(id);
      this.#dependents.delete(id);
    }
    return forgotten.length;
  }

  /** Tasks neither completed nor failed. */
  get unfinished(): number {
    return this.#unfinished;
  }

  get size(): number {
    return this.#tasks.size;
  }

  /** Every task id with its status (tools and tests). */
  *statuses(): IterableIterator<[string, TaskStatus]> {
    for (const [id, task] of this.#tasks) yield [id, task.status];
  }

  #add(task: TaskEntry): void {
    this.#tasks.set(task.task_id, task);
    if (!FINAL.has(task.status)) this.#unfinished++;
    for (const dependency of task.dependencies) {
      const list = this.#dependents.get(dependency);
      if (list) list.push(task.task_id);
      else this.#dependents.set(dependency, [task.task_id]);
    }
  }

  #get(id: string): TaskEntry {
    const task = this.#tasks.get(id);
    if (!task) throw new Error(`Task ${id} is not in the queue (a journal record names an unknown task).`);
    return task;
  }

  #line(agentType: string): ReadyQueue {
    let line = this.#lines.get(agentType);
    if (!line) this.#lines.set(agentType, (line = new ReadyQueue()));
    return line;
  }

  #enqueue(task: TaskEntry): void {
    task.status = 'ready';
    task.ready_seq = ++this.#readySeq;
    task.ready_at = this.now();
    this.#line(task.agent_type).push(task.task_id, task.priority);
    this.onReady(task.agent_type);
  }

  #finish(id: string, change: Partial<TaskEntry>): void {
    const task = this.#get(id);
    if (!FINAL.has(task.status)) this.#unfinished--;
    delete task.retry_at;
    delete task.blocked_by;
    Object.assign(task, change);
    this.#settleDependents(id);
  }

  /** A final task goes back into play with a fresh count of attempts: `retried`, or `reassigned` after it failed. */
  #reopen(task: TaskEntry): void {
    if (!FINAL.has(task.status)) return;
    this.#unfinished++;
    task.attempts = 0;
    task.partials = [];
    delete task.result;
    delete task.error;
    task.status = 'waiting';
    this.#settle(task.task_id);
    this.#settleDependents(task.task_id);
  }

  /** Recomputes the status of a task that waits, is ready or is blocked; true when it changed. */
  #settle(id: string): boolean {
    const task = this.#tasks.get(id);
    if (task === undefined) return false; // forgotten
    if (task.status !== 'waiting' && task.status !== 'ready' && task.status !== 'blocked') return false;
    let blockedBy: string | undefined;
    let pending = false;
    for (const dependency of task.dependencies) {
      const other = this.#tasks.get(dependency);
      if (other === undefined) continue; // forgotten, so completed
      if (other.status === 'failed') blockedBy ??= dependency;
      else if (other.status === 'blocked') blockedBy ??= other.blocked_by;
      else if (other.status !== 'completed') pending = true;
    }
    const before = `${task.status}:${task.blocked_by}`;
    if (blockedBy !== undefined) {
      this.#line(task.agent_type).delete(id);
      Object.assign(task, { status: 'blocked', blocked_by: blockedBy });
    } else {
      delete task.blocked_by;
      if (pending) {
        this.#line(task.agent_type).delete(id);
        task.status = 'waiting';
      } else if (task.status !== 'ready') this.#enqueue(task);
    }
    return before !== `${task.status}:${task.blocked_by}`;
  }

  /** Settles the dependents of `id`, and theirs in turn wherever a status changed. */
  #settleDependents(id: string): void {
    const stack = [id];
    while (stack.length > 0) {
      for (const dependent of this.#dependents.get(stack.pop()!) ?? []) {
        if (this.#settle(dependent)) stack.push(dependent);
      }
    }
  }
}
