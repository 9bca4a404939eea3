import { RuntimeError } from '../../../protocol/runtime/runtime-error.ts';
import type { TiersEnvelope } from '../../../protocol/tiers/envelope.ts';
import type { TaskRequest } from '../../../protocol/tiers/task-request.ts';
import type {
  BeadsEntry,
  TaskEvent,
  TaskStatus,
  TaskView,
  TiersService,
} from '../../../server/tiers/tiers-service-api.ts';

interface FakeTask {
  user: string;
  view: TaskView;
  request: TaskRequest;
  beads: BeadsEntry[];
  events: TaskEvent[];
  wake: Set<() => void>;
}

/**
 * An in-memory `TiersService` for the route tests only (validation, auth, 404, 409, 202, SSE
 * framing): it runs nothing. A test drives a task with `emit`, `ask` and `settle`, and reads
 * what the routes handed over in `submitted`, `cancellations`, `answers` and `received`.
 */
export class FakeTiersService implements TiersService {
  readonly tasks = new Map<string, FakeTask>();
  readonly submitted: TaskRequest[] = [];
  readonly cancellations: { taskId: string; reason: string; cascade: boolean }[] = [];
  readonly answers: { taskId: string; answer: string }[] = [];
  readonly received: unknown[] = [];
  /** What `receive` throws next (a version refusal, a validation error), once. */
  refuseNext: RuntimeError | undefined;
  /** Live `events` iterators still open (a closed client must bring this back to 0). */
  openStreams = 0;
  private next = 1;

  async submit(user: string, request: TaskRequest) {
    const task_id = `task-${this.next++}`;
    const view: TaskView = {
      task_id,
      status: 'working',
      outcome: null,
      tree: [],
      waiting_for_user: null,
      created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, this.next)).toISOString(),
    };
    this.tasks.set(task_id, { user, view, request, beads: [], events: [], wake: new Set() });
    this.submitted.push(request);
    return { task_id, status: view.status };
  }

  async list(user: string) {
    return [...this.tasks.values()]
      .filter((task) => task.user === user)
      .map(({ view }) => ({ task_id: view.task_id, status: view.status, created_at: view.created_at }))
      .reverse();
  }

  async get(user: string, taskId: string) {
    return this.own(user, taskId)?.view;
  }

  async messages(user: string, taskId: string) {
    const task = this.own(user, taskId);
    return task?.events.flatMap((event) => (event.type === 'message' ? [event.data] : []));
  }

  async beads(user: string, taskId: string, prefix?: string) {
    return this.own(user, taskId)?.beads.filter((entry) => entry.key.startsWith(prefix ?? ''));
  }

  events(user: string, taskId: string, options: { untilSettled: boolean; signal: AbortSignal }) {
    const task = this.own(user, taskId);
    if (task === undefined) return undefined;
    return this.stream(task, options);
  }

  async cancel(user: string, taskId: string, cancellation: { reason: string; cascade: boolean }) {
    const task = this.own(user, taskId);
    if (task === undefined) return undefined;
    if (task.view.status !== 'working') return { finished: task.view };
    this.cancellations.push({ taskId, ...cancellation });
    return { accepted: true as const };
  }

  async clarify(user: string, taskId: string, answer: string) {
    const task = this.own(user, taskId);
    if (task === undefined) return undefined;
    if (task.view.waiting_for_user === null) return 'not_waiting' as const;
    this.answers.push({ taskId, answer });
    return 'accepted' as const;
  }

  async receive(_user: string, envelope: unknown) {
    const refusal = this.refuseNext;
    this.refuseNext = undefined;
    if (refusal) throw refusal;
    this.received.push(envelope);
    return { task_id: `task-${this.next++}`, message_id: (envelope as { id: string }).id };
  }

  async close() {}

  /** Adds a live event to a task (an envelope, a delegation's status). */
  emit(taskId: string, event: TaskEvent) {
    const task = this.tasks.get(taskId)!;
    task.events.push(event);
    for (const wake of task.wake) wake();
  }

  /** Makes the task wait for the user's answer (settled, as the issue says). */
  ask(taskId: string, question: string) {
    this.tasks.get(taskId)!.view.waiting_for_user = { question };
    this.emit(taskId, { type: 'settled', data: { task_id: taskId, status: 'needs_clarification' } });
  }

  /** Ends the task with a status. */
  settle(taskId: string, status: Exclude<TaskStatus, 'working'>) {
    this.tasks.get(taskId)!.view.status = status;
    this.emit(taskId, { type: 'settled', data: { task_id: taskId, status } });
  }

  /** Writes a Beads entry of the task. */
  write(taskId: string, entry: BeadsEntry) {
    this.tasks.get(taskId)!.beads.push(entry);
  }

  private own(user: string, taskId: string) {
    const task = this.tasks.get(taskId);
    return task?.user === user ? task : undefined;
  }

  private async *stream(task: FakeTask, { untilSettled, signal }: { untilSettled: boolean; signal: AbortSignal }) {
    this.openStreams++;
    try {
      let sent = 0;
      while (!signal.aborted) {
        while (sent < task.events.length) {
          const event = task.events[sent++]!;
          yield event;
          if (untilSettled && event.type === 'settled') return;
        }
        if (signal.aborted) return;
        await new Promise<void>((resolve) => {
          const wake = () => {
            task.wake.delete(wake);
            signal.removeEventListener('abort', wake);
            resolve();
          };
          task.wake.add(wake);
          signal.addEventListener('abort', wake);
        });
      }
    } finally {
      this.openStreams--;
    }
  }
}

/** A spec envelope for event streams (the route passes it through untouched). */
export function envelopeFor(id: string): TiersEnvelope {
  return {
    version: '1.0.0',
    id,
    timestamp: '2026-01-01T00:00:00Z',
    source_tier: 'PROGRESS_MONITOR',
    target_tier: 'ABSTRACT_ARCHITECT',
    correlation_id: null,
    payload: { target_message_id: 'msg-1', reason: 'test', cascade: true },
  };
}
