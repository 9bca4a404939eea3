import { handoffsOfJournal } from '../../machines/org/handoffs-of-journal.ts';
import type { HandoffView } from '../../machines/org/handoff-view.ts';
import type { EscalationRecord } from '../../protocol/org/escalation-record.ts';
import type { OrgEnvelope } from '../../protocol/org/envelope.ts';
import type { ProjectStatus } from '../../protocol/org/http-bodies.ts';
import { FINAL_HANDOFF_STATES } from '../../protocol/org/handoff-transitions.ts';
import { isAckRecord, isRefusedRecord, type JournalRecord } from '../../protocol/runtime/ack-record.ts';

/** Each receiver's ack of a message: `acked`, still `pending`, given up (`undeliverable`), or `not_required`. */
export type AckState = 'acked' | 'pending' | 'undeliverable' | 'not_required';

/**
 * Every v2.0 envelope of a project in journal order, each with its ack state per receiver; one
 * refused at admission with its `refusal` (code, field, message) and no receiver.
 */
export function messagesWithAcks(records: readonly JournalRecord[]) {
  const acks = new Map<string, Record<string, AckState>>();
  for (const record of records) {
    if (!isAckRecord(record)) continue;
    const states = acks.get(record.message_id) ?? {};
    const state: AckState =
      record.kind === 'ack.armed'
        ? 'pending'
        : record.kind === 'ack.acked'
          ? 'acked'
          : record.kind === 'ack.undeliverable'
            ? 'undeliverable'
            : 'pending';
    if (states[record.receiver] !== 'acked' || state !== 'pending') states[record.receiver] = state;
    acks.set(record.message_id, states);
  }
  return records.flatMap((record) => {
    if (isAckRecord(record)) return [];
    if (isRefusedRecord(record)) {
      const { envelope, code, field, message } = record;
      return [{ envelope: envelope as OrgEnvelope, ack: {}, refusal: { code, ...(field ? { field } : {}), message } }];
    }
    const envelope = record.envelope as OrgEnvelope;
    const receivers = Array.isArray(envelope.destination_agent)
      ? envelope.destination_agent
      : [envelope.destination_agent];
    const known = acks.get(envelope.message_id);
    const ack = Object.fromEntries(receivers.map((r) => [r, known?.[r] ?? 'not_required']));
    return [{ envelope, ack }];
  });
}

/**
 * Where a project stands: `waiting_for_user` while an escalation waits for them; `done` once its
 * agents are idle, every handoff ended and the deploy plan was accepted; `working` otherwise.
 */
export function projectStatus(
  handoffs: readonly HandoffView[],
  escalations: readonly EscalationRecord[],
  idle: boolean,
): ProjectStatus {
  if (escalations.some((e) => e.status === 'awaiting_user')) return 'waiting_for_user';
  const ended = handoffs.every((h) => FINAL_HANDOFF_STATES.includes(h.state));
  const deployed = handoffs.some((h) => h.deliverable_type === 'deploy_plan' && h.state === 'accepted');
  return idle && ended && deployed ? 'done' : 'working';
}

export { handoffsOfJournal };
