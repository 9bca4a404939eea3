import type { TaskEvent } from './tiers-service-api.ts';

/**
 * A working task the API process of the cluster follows by reading its past again and again:
 * what its watchers were told so far, so that each read tells them only what is new, as the
 * embedded service tells them: each envelope once (a delegation counts as `working` from then
 * on), then each status change of a delegation (its end; `pending` is only ever replayed).
 *
 * @example
 * const followed = new FollowedTask(user);
 * for (const event of past.events) if (followed.isNews(event)) tell(event);
 */
export class FollowedTask {
  stopped = false;
  private readonly messages = new Set<string>();
  private readonly statuses = new Map<string, string>();

  constructor(readonly user: string) {}

  /** Whether watchers are to be told `event` (a `settled` never is: the follower records the end itself). */
  isNews(event: TaskEvent): boolean {
    if (event.type === 'message') {
      if (this.messages.has(event.data.id)) return false;
      this.messages.add(event.data.id);
      if ('task_type' in event.data.payload) this.statuses.set(event.data.id, 'working');
      return true;
    }
    if (event.type !== 'status') return false;
    const { message_id: id, status } = event.data;
    if (status === 'pending' || this.statuses.get(id) === status) return false;
    this.statuses.set(id, status);
    return true;
  }
}
