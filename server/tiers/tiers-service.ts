import { randomUUID } from 'node:crypto';
import { realClock, type ServiceClock } from '../../actors/runtime/clock.ts';
import type { TaskContext, TaskSettlement } from '../../machines/tiers/task-context.ts';
import { tiersSystem } from '../../machines/tiers/tiers-system.ts';
import type { TaskDirectory } from '../../machines/tiers/tier-brain.ts';
import {
  adoptExternalRoot,
  cancelRoot,
  delegateRoot,
  resumeWithAnswer,
  rootPayloadOf,
} from '../../machines/tiers/tier-monitor.ts';
import { SeenMessages } from './seen-messages.ts';
import { inTierWork } from './tier-work-scope.ts';
import type { TiersEnvelope } from '../../protocol/tiers/envelope.ts';
import type { TaskRequest } from '../../protocol/tiers/task-request.ts';
import { RunHost } from '../run-host/run-host.ts';
import { cancelWaiting } from './cancel-waiting.ts';
import { LiveTask } from './live-task.ts';
import { MessageTasks } from './message-tasks.ts';
import { receiveMessage } from './receive-message.ts';
import { TaskEvents } from './task-events.ts';
import { TaskRecords, type TaskRecord } from './task-records.ts';
import { TaskReader } from './task-reader.ts';
import type { TiersServiceOptions } from './tiers-service-options.ts';
import { KeyedQueue } from '../../actors/runtime/keyed-queue.ts';
import type { BeadsEntry, TaskEvent, TaskStatus, TaskView, TiersService } from './tiers-service-api.ts';

/**
 * The tiers system (spec 002) on the run host: one supervised run per task (its journal
 * partition), live while the task works; a task that ended or waits for its user is read from
 * its journals and record. A restart reopens every unfinished task: its tree re-arms its
 * watchdogs from their absolute deadlines and every message not yet handled is handed over again
 * (the dedup service answers what was).
 */
export class TiersServiceImpl implements TiersService {
  private readonly records: TaskRecords;
  private readonly live = new Map<string, LiveTask>();
  private readonly tasks = new MessageTasks();
  private readonly journaledBefore = new Map<string, string[]>();
  /** A task's cancel and clarify, one at a time: each sees what the one before it decided. */
  private readonly userActs = new KeyedQueue();
  private readonly seen: SeenMessages;
  readonly hub = new TaskEvents();
  private readonly reader: TaskReader;
  private host!: RunHost;
  private readonly clock: ServiceClock;

  private constructor(private readonly options: TiersServiceOptions) {
    this.clock = options.clock ?? realClock;
    this.records = new TaskRecords(options.store);
    this.seen = new SeenMessages(options.beads, this.clock, options.seenForMs);
    this.reader = new TaskReader(options, this.records, (id) => this.live.get(id));
  }

  static async open(options: TiersServiceOptions): Promise<TiersServiceImpl> {
    const service = new TiersServiceImpl(options);
    const runClock = options.runClock ?? options.clock;
    const directory: TaskDirectory = {
      contextOf: async (envelope) => service.live.get(service.tasks.partitionOf(envelope))?.ctx,
      once: (receiver, id, work) => service.once(receiver, id, work) as Promise<TiersEnvelope[]>,
      sending: (ctx, envelopes) => envelopes.forEach((e) => service.tasks.register(e, ctx.taskId)),
    };
    service.host = RunHost.ephemeral({
      system: tiersSystem({
        specialists: options.brains.specialists,
        directory,
        partitionOf: (e) => service.tasks.partitionOf(e),
      }),
      journal: options.journal,
      store: options.store,
      runActor: 'PROGRESS_MONITOR',
      // A task's run built again (after a restart, or for the user's answer) knows what its journal holds.
      runInput: (partition) => ({ journaledIds: service.journaledBefore.get(partition) ?? [] }),
      ...(runClock ? { clock: runClock } : {}),
      ...(options.admission ? { admission: options.admission } : {}),
      ...(options.inspect ? { inspect: options.inspect } : {}),
    });
    for (const { task_id, user } of await service.records.unfinished()) await service.resume(task_id, user);
    return service;
  }

  /** The runtime's dedup service: a message's work runs once per receiver (in its scope), its answer cached an hour. */
  once(receiver: string, id: string, work: () => Promise<unknown>): Promise<unknown> {
    return this.seen.once(receiver, id, () => inTierWork({ receiver, message: id }, work));
  }

  async submit(
    user: string,
    request: TaskRequest,
    taskId: string = randomUUID(),
  ): Promise<{ task_id: string; status: TaskStatus }> {
    this.host.checkAdmission(user);
    const payload = rootPayloadOf(request);
    await this.start(user, taskId, async (ctx) => delegateRoot(ctx, payload, 'start'));
    return { task_id: taskId, status: 'working' };
  }

  /** Starts a task whose first delegation an external Progress Monitor sent (`envelope`, to the Architect). */
  async startExternal(user: string, envelope: TiersEnvelope, taskId: string = randomUUID()): Promise<string> {
    await this.start(user, taskId, (ctx) => adoptExternalRoot(ctx, envelope));
    return taskId;
  }

  /** Starts a task whose first delegation `root` makes (ours, or an external Monitor's). */
  private async start(user: string, taskId: string, root: (ctx: TaskContext) => Promise<TiersEnvelope>): Promise<void> {
    const record: TaskRecord = {
      task_id: taskId,
      user,
      created_at: new Date(this.clock.now()).toISOString(),
      status: 'working',
      outcome: null,
      waiting_for_user: null,
    };
    const live = await this.bringUp(taskId, user);
    const envelope = await root(live.ctx);
    await this.records.create(record);
    await this.sendNow(taskId, envelope);
  }

  /** Builds the task's run, tree and Beads (live until it settles); refused when full unless `recovered`. */
  private async bringUp(taskId: string, user: string, recovered = false): Promise<LiveTask> {
    const existing = this.live.get(taskId);
    if (existing) return existing;
    const run = this.host.start({ owner: user, partition: taskId, recovered });
    run.watch((event) => {
      if (event.type === 'message') this.hub.message(taskId, event.data as TiersEnvelope);
    });
    const live = await LiveTask.open({
      taskId,
      user,
      run,
      trees: this.options.trees,
      beadsJournal: this.options.beads,
      clock: this.clock,
      brains: this.options.brains,
      ...(this.options.timeouts ? { timeouts: this.options.timeouts } : {}),
      send: (envelope, context) => this.send(taskId, envelope, context),
      settle: (settlement) => this.settle(taskId, settlement),
      onSettled: (node) => this.hub.status(taskId, node.id, node.status),
      stopWork: (target, id) =>
        this.host.get(taskId)?.supervisor.send({ type: 'supervisor.cancel', agent: target, requestId: id }),
    });
    this.live.set(taskId, live);
    return live;
  }

  private send(taskId: string, envelope: TiersEnvelope, context?: unknown, redeliver = false): void {
    this.tasks.register(envelope, taskId);
    const run = this.host.get(taskId);
    run?.supervisor.send({
      type: 'supervisor.send',
      envelope,
      ...(context === undefined ? {} : { context }),
      ...(redeliver ? { redeliver: true } : {}),
    });
  }

  private async sendNow(taskId: string, envelope: TiersEnvelope): Promise<void> {
    const run = this.host.get(taskId)!;
    const journaled = run.journaled(envelope.id);
    this.send(taskId, envelope);
    await journaled;
  }

  /** The Monitor ended the task or parked it for its user: record it, tell watchers, let the run go. */
  private async settle(taskId: string, settlement: TaskSettlement): Promise<void> {
    await this.records.update(taskId, settlement);
    const live = this.live.get(taskId);
    this.live.delete(taskId);
    this.journaledBefore.delete(taskId);
    const run = this.host.get(taskId);
    // After the Monitor's brain returns: its run stops once what it journaled is on disk.
    setImmediate(() => {
      void (async () => {
        await run?.quiescent();
        if (settlement.waiting_for_user === null) await live?.endOpen(`the task ended ${settlement.status}`);
        this.host.release(taskId);
        await live?.close();
        this.hub.settled(taskId, settlement.status);
      })();
    });
  }

  /** The task's journal and its envelopes' ids, which its run is told when built again (`runInput`). */
  private async readJournal(taskId: string) {
    const entries = await this.options.journal.read(taskId);
    const ids = entries.map((entry) => (entry.data.envelope as TiersEnvelope).id);
    this.journaledBefore.set(taskId, ids);
    return { entries, journaled: new Set(ids) };
  }

  /** Reopens an unfinished task after a restart and hands over what was not handled. */
  private async resume(taskId: string, user: string): Promise<void> {
    const { entries, journaled } = await this.readJournal(taskId);
    for (const entry of entries) this.tasks.register(entry.data.envelope as TiersEnvelope, taskId);
    const live = await this.bringUp(taskId, user, true);
    for (const node of live.tree.nodes()) {
      const envelope = (node.data as { envelope: TiersEnvelope }).envelope;
      this.tasks.register(envelope, taskId);
      if (node.status === 'open' && !journaled.has(envelope.id)) live.sendWhenDue(node);
    }
    for (const entry of entries) {
      const envelope = entry.data.envelope as TiersEnvelope;
      const handled = await this.seen.answered(envelope.target_tier, envelope.id);
      if (handled) {
        for (const sent of handled.value as TiersEnvelope[]) if (!journaled.has(sent.id)) this.send(taskId, sent);
      } else this.send(taskId, envelope, entry.data.context, true);
    }
  }

  list(user: string) {
    return this.records.summaries(user);
  }

  get(user: string, taskId: string): Promise<TaskView | undefined> {
    return this.reader.view(user, taskId);
  }

  messages(user: string, taskId: string): Promise<TiersEnvelope[] | undefined> {
    return this.reader.messages(user, taskId);
  }

  beads(user: string, taskId: string, prefix?: string): Promise<BeadsEntry[] | undefined> {
    return this.reader.beads(user, taskId, prefix);
  }

  events(
    user: string,
    taskId: string,
    options: { untilSettled: boolean; signal: AbortSignal },
  ): AsyncIterable<TaskEvent> | undefined {
    return this.hub.stream(taskId, options, () => this.reader.replay(user, taskId));
  }

  cancel(user: string, taskId: string, cancellation: { reason: string; cascade: boolean }) {
    return this.userActs.run(taskId, () => this.cancelNow(user, taskId, cancellation));
  }

  private async cancelNow(user: string, taskId: string, cancellation: { reason: string; cascade: boolean }) {
    const record = await this.records.own(user, taskId);
    if (!record) return undefined;
    if (record.waiting_for_user && !this.live.has(taskId))
      return cancelWaiting(this.records, this.hub, record, cancellation.reason);
    const live = this.live.get(taskId);
    const envelope = live && (await cancelRoot(live.ctx, cancellation.reason, cancellation.cascade));
    if (!envelope) return { finished: (await this.reader.view(user, taskId))! };
    await this.sendNow(taskId, envelope);
    return { accepted: true as const };
  }

  clarify(user: string, taskId: string, answer: string): Promise<'accepted' | 'not_waiting' | undefined> {
    return this.userActs.run(taskId, () => this.clarifyNow(user, taskId, answer));
  }

  private async clarifyNow(
    user: string,
    taskId: string,
    answer: string,
  ): Promise<'accepted' | 'not_waiting' | undefined> {
    const record = await this.records.own(user, taskId);
    if (!record) return undefined;
    if (!record.waiting_for_user || this.live.has(taskId)) return 'not_waiting';
    await this.readJournal(taskId);
    const live = await this.bringUp(taskId, user);
    const envelope = await resumeWithAnswer(live.ctx, answer);
    await this.records.update(taskId, { status: 'working', waiting_for_user: null, outcome: null });
    await this.sendNow(taskId, envelope);
    return 'accepted';
  }

  receive(user: string, envelope: unknown): Promise<{ task_id: string; message_id: string }> {
    return receiveMessage(this, user, envelope);
  }

  /** Whether a message id is in use: routed in a live task, or handled by the Architect within the hour. */
  async idTaken(id: string): Promise<boolean> {
    return this.tasks.of(id) !== undefined || (await this.seen.answered('ABSTRACT_ARCHITECT', id)) !== undefined;
  }

  /** The task an external message's delegation started, if this service knows it. */
  taskOf(id: string): string | undefined {
    return this.tasks.of(id);
  }

  owns = async (user: string, taskId: string) => (await this.records.own(user, taskId)) !== undefined;

  async close(): Promise<void> {
    for (const live of this.live.values()) await live.close();
    this.live.clear();
    await this.host.close();
    await this.seen.close();
    this.hub.close();
  }
}
