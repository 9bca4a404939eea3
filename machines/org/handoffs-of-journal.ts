import {
  HandoffIdSchema,
  HandoffNotificationSchema,
  HandoffVerdictSchema,
} from '../../protocol/org/handoff-messages.ts';
import type { OrgEnvelope } from '../../protocol/org/envelope.ts';
import { isAckRecord, isRoutedRecord, type JournalRecord } from '../../protocol/runtime/ack-record.ts';
import { HandoffBook, type HandoffView } from './handoff-view.ts';
import type { HandoffInput } from './handoff.ts';

/**
 * A project's handoffs, read off its journal in order through the `handoff` statechart: each
 * handoff_notification (`notify`), the runtime's ack of it by its receiver (`acked`) or its
 * give-up (`undeliverable`), and the receiver's `handoff_response` (`accepted`/`rejected`).
 */
export function handoffsOfJournal(records: readonly JournalRecord[]): HandoffView[] {
  const book = new HandoffBook();
  /** Notification message id -> its handoff. */
  const notifications = new Map<string, HandoffInput>();
  for (const record of records) {
    if (isAckRecord(record)) {
      const about = notifications.get(record.message_id);
      if (!about || record.receiver !== about.to) continue;
      const stamp = { at: '', message_id: record.message_id };
      if (record.kind === 'ack.acked') book.apply(about, { type: 'handoff.acked', ...stamp });
      if (record.kind === 'ack.undeliverable') book.apply(about, { type: 'handoff.undeliverable', ...stamp });
      continue;
    }
    // A refused envelope was never delivered: it moves no handoff.
    if (!isRoutedRecord(record)) continue;
    const envelope = record.envelope as OrgEnvelope;
    if (envelope.message_type !== 'request' && envelope.message_type !== 'response') continue;
    const stamp = { at: envelope.timestamp, message_id: envelope.message_id };
    const notice = HandoffNotificationSchema.safeParse(envelope.payload.content);
    if (envelope.message_type === 'request' && notice.success) {
      const about: HandoffInput = {
        handoff_id: notice.data.handoff_id,
        from: envelope.source_agent,
        to: String(envelope.destination_agent),
        deliverable_type: notice.data.deliverable_type,
      };
      notifications.set(envelope.message_id, about);
      book.apply(about, { type: 'handoff.notify', ...stamp });
      continue;
    }
    const verdict = HandoffVerdictSchema.safeParse(envelope.payload.content);
    const id = verdict.success ? HandoffIdSchema.safeParse(verdict.data.handoff_id) : undefined;
    if (!verdict.success || !book.has(verdict.data.handoff_id)) continue;
    const about: HandoffInput = {
      handoff_id: verdict.data.handoff_id,
      from: id?.success ? id.data.from : String(envelope.destination_agent),
      to: envelope.source_agent,
      deliverable_type: id?.success ? id.data.type : '',
    };
    book.apply(
      about,
      verdict.data.verdict === 'accepted'
        ? { type: 'handoff.accepted', ...stamp }
        : { type: 'handoff.rejected', issues: verdict.data.issues, ...stamp },
    );
  }
  return book.views();
}
