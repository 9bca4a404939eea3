import type { TiersEnvelope } from '../../protocol/tiers/envelope.ts';

/**
 * Which task each message of the tiers belongs to (its journal partition), known from what the
 * tasks sent and journaled: an envelope's task is its own id's, else that of the delegation it
 * answers, else that of the one it cancels.
 *
 * @example
 * tasks.register(envelope, taskId);
 * tasks.partitionOf(reply); // the task of the delegation it answers
 */
export class MessageTasks {
  private readonly taskOfId = new Map<string, string>();

  register(envelope: TiersEnvelope, taskId: string): void {
    this.taskOfId.set(envelope.id, taskId);
  }

  /** The task of a message id, if known. */
  of(id: string): string | undefined {
    return this.taskOfId.get(id);
  }

  /** The task (journal partition) of an envelope; `unrouted` when none is known. */
  partitionOf(envelope: TiersEnvelope): string {
    const payload = envelope.payload as { target_message_id?: string };
    return (
      this.of(envelope.id) ??
      (envelope.correlation_id ? this.of(envelope.correlation_id) : undefined) ??
      (payload.target_message_id ? this.of(payload.target_message_id) : undefined) ??
      'unrouted'
    );
  }
}
