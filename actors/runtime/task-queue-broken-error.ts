import { errorMessage } from '../../protocol/runtime/error-message.ts';
import { RuntimeError } from '../../protocol/runtime/runtime-error.ts';

/**
 * A task queue whose journal refused a record: its memory may be ahead of the disk, so it takes
 * nothing more. Fix the journal, then open the queue again, which rebuilds it from what was written.
 */
export class TaskQueueBrokenError extends RuntimeError {
  override name = 'TaskQueueBrokenError';
  constructor(
    readonly queue: string,
    readonly reason: unknown,
  ) {
    const detail = errorMessage(reason);
    super(
      'task_queue_journal_failed',
      `Task queue ${queue} could not journal a record (${detail}); it takes nothing more: fix the journal, then close the queue and open it again (openTaskQueue), which rebuilds it from what was journaled.`,
      503,
    );
  }
}
