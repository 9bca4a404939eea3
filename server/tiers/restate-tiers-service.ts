import { randomUUID } from 'node:crypto';
import { realClock, type ServiceClock } from '../../actors/runtime/clock.ts';
import { derivedUuid } from '../../actors/runtime/derived-id.ts';
import type { Journal } from '../../actors/runtime/journal.ts';
import { KeyedQueue } from '../../actors/runtime/keyed-queue.ts';
import type { Store } from '../../actors/runtime/store.ts';
import { rootPayloadOf } from '../../machines/tiers/tier-monitor.ts';
import type { TiersEnvelope } from '../../protocol/tiers/envelope.ts';
import type { TaskRequest } from '../../protocol/tiers/task-request.ts';
import { postToIngress, type IngressRetry } from '../restate/ingress-post.ts';
import { Admission, DEFAULT_ADMISSION, type AdmissionLimits } from '../run-host/admission.ts';
import { FollowedTask } from './followed-task.ts';
import { receiveMessage } from './receive-message.ts';
import { TIERS_HOST } from './restate-tiers-object.ts';
import { SeenMessages } from './seen-messages.ts';
import { TaskEvents } from './task-events.ts';
import { TaskRecords } from './task-records.ts';
import type { TaskRead } from './tiers-task-step.ts';
import type { BeadsEntry, TaskEvent, TaskStatus, TaskView, TiersService } from './tiers-service-api.ts';

/** How often a working task's state is read while this process follows it. */
const FOLLOW_MS = 100;

export interface RestateTiersOptions {
  ingressUrl: string;
  /** This process's store: who owns which task, each user's listing, the index of working tasks. */
  store: Store;
  /** This process's journal for the dedup of external messages (`external/<user>`; `DATA_DIR/journal/tiers-external`). */
  seen: Journal<unknown>;
  clock?: ServiceClock;
  admission?: Partial<AdmissionLimits>;
  retry?: IngressRetry;
  /** How often a working task is read (ms). */
  followMs?: number;
}

/**
 * The tiers service of `npm run start:cluster`'s API process: the same service as the embedded
 * one, whose tasks live on Restate. Each task is its `tiers-host` object (`tiersObjects`): its
 * run, delegation tree, Beads and record are the object's state, and every operation on it is
 * one of its handlers. This process keeps who owns which task (a record per task, a listing per
 * user, the index of working tasks, as the embedded service does), admission, and the dedup of
 * external messages; it follows each working task (reading its state every `followMs`) to tell
 * the task's watchers what it routed and how its delegations stand, and to record how it ended.
 * A restart follows again every task that was working (its object went on meanwhile).
 *
 * @example
 * const tiers = await RestateTiersService.open({ ingressUrl, store, seen: await journal('tiers-beads') });
 * const { task_id } = await tiers.submit(user, request);
 */
export class RestateTiersService implements TiersService {
  readonly hub = new TaskEvents();
  private readonly records: TaskRecords;
  private readonly roots;
  private readonly seen: SeenMessages;
  private readonly admission: Admission;
  private readonly followed = new Map<string, FollowedTask>();
  private readonly taskOfId = new Map<string, string>();
  private readonly userActs = new KeyedQueue();
  private readonly following = new Set<Promise<void>>();
  /** Aborted on close: reads and sends under way are cut off (Restate may be stopping too). */
  private readonly closing = new AbortController();

  private constructor(private readonly options: RestateTiersOptions) {
    this.records = new TaskRecords(options.store);
    this.roots = options.store.collection<{ task_id: string }>('tiers/roots');
    this.seen = new SeenMessages(options.seen, options.clock ?? realClock);
    this.admission = new Admission('tiers tasks', { ...DEFAULT_ADMISSION, ...options.admission });
  }

  static async open(options: RestateTiersOptions): Promise<RestateTiersService> {
    const service = new RestateTiersService(options);
    for (const { task_id, user } of await service.records.unfinished()) service.follow(task_id, user, true);
    return service;
  }

  async submit(user: string, request: TaskRequest): Promise<{ task_id: string; status: TaskStatus }> {
    rootPayloadOf(request);
    const taskId = randomUUID();
    await this.begin(user, taskId, 'submit', { user, request });
    return { task_id: taskId, status: 'working' };
  }

  /**
   * Starts a task with an external Monitor's delegation as its first message. Its id is derived
   * from the user and the message: a client trying again after an answer lost on the way starts
   * nothing new (the object's handler answers under the same idempotency key).
   */
  async startExternal(user: string, envelope: TiersEnvelope): Promise<string> {
    const taskId = derivedUuid('tiers-external', user, envelope.id);
    await this.begin(user, taskId, 'receive', { user, envelope });
    await this.roots.put(envelope.id, { task_id: taskId });
    return taskId;
  }

  /**
   * Takes a working slot for the task (refused at once beyond the limits, as embedded), has
   * Restate start it (`handler`, under the task's id as idempotency key), records it as its
   * user's and follows it until it settles. The slot is given back when Restate does not take it.
   */
  private async begin(user: string, taskId: string, handler: 'submit' | 'receive', body: unknown): Promise<void> {
    this.admission.admit(taskId, user);
    let created: { created_at: string };
    try {
      created = await this.post<{ created_at: string }>(taskId, handler, body, taskId);
    } catch (error) {
      this.admission.leave(taskId);
      throw error;
    }
    await this.records.create({
      task_id: taskId,
      user,
      created_at: created.created_at,
      status: 'working',
      outcome: null,
      waiting_for_user: null,
    });
    this.follow(taskId, user);
  }

  list(user: string) {
    return this.records.summaries(user);
  }

  get(user: string, taskId: string): Promise<TaskView | undefined> {
    return this.readOwn(user, taskId, { read: 'view', user });
  }

  messages(user: string, taskId: string): Promise<TiersEnvelope[] | undefined> {
    return this.readOwn(user, taskId, { read: 'messages', user });
  }

  beads(user: string, taskId: string, prefix?: string): Promise<BeadsEntry[] | undefined> {
    return this.readOwn(user, taskId, { read: 'beads', user, ...(prefix === undefined ? {} : { prefix }) });
  }

  events(
    user: string,
    taskId: string,
    options: { untilSettled: boolean; signal: AbortSignal },
  ): AsyncIterable<TaskEvent> | undefined {
    return this.hub.stream(taskId, options, () =>
      this.readOwn<{ events: TaskEvent[]; settled: boolean }>(user, taskId, { read: 'replay', user }),
    );
  }

  // A user's act is one invocation whatever the tries (its own idempotency key), one act of a task at a time.
  cancel(user: string, taskId: string, cancellation: { reason: string; cascade: boolean }) {
    return this.userActs.run(taskId, async () => {
      if (!(await this.owns(user, taskId))) return undefined;
      const answer = await this.post<{ accepted: true } | { finished: TaskView } | null>(
        taskId,
        'cancel',
        { user, ...cancellation },
        randomUUID(),
      );
      // A task waiting for its user ends at once: record it now.
      if (answer && 'accepted' in answer && !this.followed.has(taskId)) await this.record(taskId, user);
      return answer ?? undefined;
    });
  }

  clarify(user: string, taskId: string, answer: string): Promise<'accepted' | 'not_waiting' | undefined> {
    return this.userActs.run(taskId, async () => {
      if (!(await this.owns(user, taskId))) return undefined;
      // Waking a task takes a working slot, as embedded: refused at once beyond the limits.
      if (!this.followed.has(taskId)) this.admission.check(user);
      const result = await this.post<'accepted' | 'not_waiting' | null>(
        taskId,
        'clarify',
        { user, answer },
        randomUUID(),
      );
      if (result === 'accepted') {
        await this.records.update(taskId, { status: 'working', waiting_for_user: null, outcome: null });
        this.follow(taskId, user, true);
      }
      return result ?? undefined;
    });
  }

  receive(user: string, envelope: unknown): Promise<{ task_id: string; message_id: string }> {
    return receiveMessage(this, user, envelope);
  }

  /** The dedup of external messages, in this process (their tasks do not exist yet). */
  once(receiver: string, id: string, work: () => Promise<unknown>): Promise<unknown> {
    return this.seen.once(receiver, id, work);
  }

  /** The task of a message id: routed in a task this process follows, or an external task's first message. */
  async taskOf(id: string): Promise<string | undefined> {
    return this.taskOfId.get(id) ?? (await this.roots.get(id))?.task_id;
  }

  async idTaken(id: string): Promise<boolean> {
    return (await this.taskOf(id)) !== undefined;
  }

  owns = async (user: string, taskId: string) => (await this.records.own(user, taskId)) !== undefined;

  async close(): Promise<void> {
    for (const followed of this.followed.values()) followed.stopped = true;
    this.followed.clear();
    this.closing.abort(new Error('The tiers service is closing.'));
    await Promise.allSettled([...this.following]);
    await this.seen.close();
    this.hub.close();
  }

  private async readOwn<T>(user: string, taskId: string, request: TaskRead): Promise<T | undefined> {
    if (!(await this.owns(user, taskId))) return undefined;
    return (await this.post<T | null>(taskId, 'view', request)) ?? undefined;
  }

  private async post<T>(taskId: string, handler: string, body: unknown, idempotencyKey?: string): Promise<T> {
    const url = `${this.options.ingressUrl}/${TIERS_HOST}/${encodeURIComponent(taskId)}/${handler}`;
    const response = await postToIngress(url, body, idempotencyKey, this.options.retry, this.closing.signal);
    return (await response.json()) as T;
  }

  /** Follows a working task until it settles: its slot in admission (taken here when `force`), its events to its watchers. */
  private follow(taskId: string, user: string, force = false): void {
    if (this.followed.has(taskId)) return;
    if (force) this.admission.admit(taskId, user, { force });
    const followed = new FollowedTask(user);
    this.followed.set(taskId, followed);
    const done = this.followUntilSettled(taskId, followed).finally(() => this.following.delete(done));
    this.following.add(done);
  }

  private async followUntilSettled(taskId: string, followed: FollowedTask): Promise<void> {
    const wait = this.options.followMs ?? FOLLOW_MS;
    while (!followed.stopped) {
      try {
        const past = await this.post<{ events: TaskEvent[]; settled: boolean } | null>(taskId, 'view', {
          read: 'replay',
          user: followed.user,
        });
        for (const event of past?.events ?? []) if (followed.isNews(event)) this.tell(taskId, event);
        // Recorded as one of the user's acts: a clarify or cancel under way is seen whole, before or after.
        if (past === null || past.settled) await this.userActs.run(taskId, () => this.record(taskId, followed.user));
      } catch {
        // Restate restarting or overloaded: read again later.
      }
      if (!followed.stopped) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** Tells the task's watchers an event new to them (an envelope also names its task from now on). */
  private tell(taskId: string, event: TaskEvent): void {
    if (event.type !== 'message') return this.hub.event(taskId, event);
    this.taskOfId.set(event.data.id, taskId);
    this.hub.message(taskId, event.data);
  }

  /**
   * Records the task as its object holds it, once it settled (ended, or waits for its user): its
   * slot given back, its watchers told, following stopped. A task still working (a clarify just
   * woke it) is left to its follower. A task whose object holds nothing (its Restate data gone)
   * is recorded failed, so that nobody waits for it.
   */
  private async record(taskId: string, user: string): Promise<void> {
    const view = await this.post<TaskView | null>(taskId, 'view', { read: 'view', user });
    if (view?.status === 'working') return;
    if (view) {
      await this.records.update(taskId, {
        status: view.status,
        outcome: view.outcome,
        waiting_for_user: view.waiting_for_user,
      });
    } else {
      console.error(`Tiers task ${taskId}: its Restate object holds no state; recorded failed.`);
      await this.records.update(taskId, { status: 'failed', outcome: null, waiting_for_user: null });
    }
    const followed = this.followed.get(taskId);
    if (followed) followed.stopped = true;
    this.followed.delete(taskId);
    this.admission.leave(taskId);
    this.hub.settled(taskId, view?.status ?? 'failed');
  }
}
