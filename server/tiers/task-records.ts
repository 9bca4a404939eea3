import type { Store } from '../../actors/runtime/store.ts';
import type { OutcomePayload } from '../../protocol/tiers/payloads.ts';
import type { TaskStatus } from './tiers-service-api.ts';

/** What the store keeps of a task (a cache of its journals: the Monitor's last word on it). */
export interface TaskRecord {
  task_id: string;
  user: string;
  created_at: string;
  status: TaskStatus;
  outcome: OutcomePayload | null;
  waiting_for_user: { question: string } | null;
}

/**
 * The tiers tasks in the store: one document per task (`tiers/tasks`), a listing per user
 * (`tiers/users/<user>`), and the index of unfinished tasks (`tiers/unfinished`), the only one
 * read at start-up.
 */
export class TaskRecords {
  private readonly tasks;
  private readonly unfinishedIndex;

  constructor(private readonly store: Store) {
    this.tasks = store.collection<TaskRecord>('tiers/tasks');
    this.unfinishedIndex = store.collection<{ task_id: string; user: string }>('tiers/unfinished');
  }

  get(taskId: string): Promise<TaskRecord | undefined> {
    return this.tasks.get(taskId).catch(() => undefined);
  }

  /** The task if it is `user`'s; undefined for another user's too. */
  async own(user: string, taskId: string): Promise<TaskRecord | undefined> {
    if (!/^[\w-]{1,80}$/.test(taskId)) return undefined;
    const record = await this.get(taskId);
    return record?.user === user ? record : undefined;
  }

  async create(record: TaskRecord): Promise<void> {
    await Promise.all([
      this.tasks.put(record.task_id, record),
      this.store
        .collection<{ task_id: string; created_at: string }>(`tiers/users/${record.user}`)
        .put(record.task_id, { task_id: record.task_id, created_at: record.created_at }),
      this.unfinishedIndex.put(record.task_id, { task_id: record.task_id, user: record.user }),
    ]);
  }

  /** Updates a task; one that ended or waits for its user leaves the unfinished index, one working joins it. */
  async update(taskId: string, change: Partial<TaskRecord>): Promise<TaskRecord> {
    const record = await this.tasks.update(taskId, (doc) => ({ ...doc!, ...change }));
    if (record.status === 'working') await this.unfinishedIndex.put(taskId, { task_id: taskId, user: record.user });
    else await this.unfinishedIndex.delete(taskId);
    return record;
  }

  /** The user's tasks, newest first. */
  async list(user: string): Promise<TaskRecord[]> {
    const listed = await this.store.collection<{ task_id: string; created_at: string }>(`tiers/users/${user}`).list();
    const records = await Promise.all(listed.map((entry) => this.get(entry.task_id)));
    return records
      .filter((r): r is TaskRecord => r !== undefined)
      .sort((a, b) => b.created_at.localeCompare(a.created_at));
  }

  /** The user's tasks, newest first, as the listing shows them. */
  async summaries(user: string): Promise<Pick<TaskRecord, 'task_id' | 'status' | 'created_at'>[]> {
    return (await this.list(user)).map(({ task_id, status, created_at }) => ({ task_id, status, created_at }));
  }

  unfinished(): Promise<{ task_id: string; user: string }[]> {
    return this.unfinishedIndex.list();
  }
}
