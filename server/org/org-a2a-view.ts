import { parseLocation, type OrgWorkspace } from '../../actors/org/workspace.ts';
import { DeliverableTypeSchema, type DeliverableType } from '../../protocol/org/deliverables.ts';
import type { OrgEnvelope } from '../../protocol/org/envelope.ts';
import type { EscalationRecord } from '../../protocol/org/escalation-record.ts';
import { HandoffNotificationSchema } from '../../protocol/org/handoff-messages.ts';
import type { ProjectStatus } from '../../protocol/org/http-bodies.ts';
import { isRoutedRecord, type JournalRecord } from '../../protocol/runtime/ack-record.ts';
import type { A2aArtifact, A2aProduced, A2aView } from '../a2a/a2a-mapping.ts';
import { a2aStatusOf } from '../a2a/a2a-status.ts';

/** A published version of a deliverable, as the project's journal first hands it off (in record `recordId`). */
interface Published {
  type: DeliverableType;
  version: number;
  recordId: string;
}

/**
 * Each deliverable version the project handed off, once, in the order of its first
 * `handoff_notification` in the journal (a version handed to three receivers counts once; an
 * external agent's inline deliverable is not the org's and is left out).
 */
export function publishedOf(records: readonly JournalRecord[]): Published[] {
  const seen = new Set<string>();
  const published: Published[] = [];
  for (const record of records) {
    if (!isRoutedRecord(record)) continue;
    const envelope = record.envelope as OrgEnvelope;
    if (envelope.message_type !== 'request') continue;
    const notice = HandoffNotificationSchema.safeParse(envelope.payload.content);
    if (!notice.success) continue;
    const { location } = notice.data;
    const at = parseLocation(location);
    const type = DeliverableTypeSchema.safeParse(at?.type);
    if (!at || !type.success || seen.has(location)) continue;
    seen.add(location);
    published.push({ type: type.data, version: at.version, recordId: envelope.message_id });
  }
  return published;
}

/**
 * The deliverables the project handed off, each version in turn, as artifacts
 * (`org/<type>@<schema version>`), each named by the record that handed it off first. A version
 * the workspace cannot read is left out until it can.
 */
export async function producedArtifacts(ws: OrgWorkspace, records: readonly JournalRecord[]): Promise<A2aProduced[]> {
  const artifacts: A2aProduced[] = [];
  for (const { type, version, recordId } of publishedOf(records)) {
    const deliverable = await ws.deliverable(type, version);
    if (!deliverable) continue;
    artifacts.push({
      name: type,
      description: `${type} v${version} by ${deliverable.author}`,
      schema: `org/${type}@${deliverable.schema_version}`,
      data: deliverable.body,
      recordId,
    });
  }
  return artifacts;
}

/** What a task waiting for the user says: each escalation sent to them, and how to reply. */
function questionOf(escalations: readonly EscalationRecord[]): string {
  const waiting = escalations.filter((e) => e.status === 'awaiting_user');
  const lines = waiting.map(
    (e) =>
      `Escalation ${e.escalation_id} (${e.payload.conflict_type}, from ${e.from}): ${e.payload.impact_if_unresolved} Recommended: ${e.payload.recommended_resolution}`,
  );
  return `${lines.join('\n')}\nReply to this task with your decision as text, or a data part { "decision", "apply_recommendation"?, "escalation_id"? } (the oldest escalation when none is named).`;
}

const statusOf = a2aStatusOf<{ status: ProjectStatus; escalations: readonly EscalationRecord[] }>({
  state: ({ status }) => (status === 'done' ? 'completed' : status === 'working' ? 'working' : 'input-required'),
  messages: { 'input-required': ({ escalations }) => questionOf(escalations) },
});

/**
 * A project as an A2A task: `working`, `input-required` while an escalation waits for the user
 * (its message says which and how to reply), `completed` once done; its artifacts the latest
 * version of each deliverable, in the order they were first handed off.
 */
export function projectTaskView(
  status: ProjectStatus,
  escalations: readonly EscalationRecord[],
  produced: readonly A2aArtifact[],
): A2aView {
  const latest = new Map<string, A2aArtifact>();
  for (const artifact of produced) latest.set(artifact.name, artifact);
  return { ...statusOf({ status, escalations }), artifacts: [...latest.values()] };
}
