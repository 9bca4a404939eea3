import { cancelledWaiting } from '../../machines/tiers/tier-monitor.ts';
import type { TaskEvents } from './task-events.ts';
import type { TaskRecord, TaskRecords } from './task-records.ts';

/**
 * Cancels a task that waits for its user's answer: nothing is open under it, so the cancellation
 * ends it `cancelled` at once, in its durable record (it survives a restart), and tells watchers.
 *
 * @example await cancelWaiting(records, hub, record, 'No longer needed.') // { accepted: true }
 */
export async function cancelWaiting(
  records: TaskRecords,
  hub: TaskEvents,
  record: TaskRecord,
  reason: string,
): Promise<{ accepted: true }> {
  const outcome = cancelledWaiting(record.waiting_for_user?.question ?? '', reason);
  await records.update(record.task_id, { status: 'cancelled', outcome, waiting_for_user: null });
  hub.settled(record.task_id, 'cancelled');
  return { accepted: true };
}
