import type { OrgWorkspace } from '../../actors/org/workspace.ts';
import { OrgAgentSchema, type OrgEnvelope } from '../../protocol/org/envelope.ts';
import { isRoutedRecord, type JournalRecord } from '../../protocol/runtime/ack-record.ts';

const receiversOf = (m: OrgEnvelope): string[] =>
  Array.isArray(m.destination_agent) ? m.destination_agent : [m.destination_agent];

/**
 * Journal first: the envelopes of a project's journal that some receiver has not handled yet
 * (no turn of its own recorded in the workspace, or one whose messages are not all journaled),
 * in journal order. A project cut off by a
 * restart hands exactly these over again (`redeliver`: the supervisor does not journal them a
 * second time, and a receiver that did handle one answers from its recorded turn).
 *
 * @example
 * run.send({ type: 'project.redeliver', envelopes: await unhandledOf(records, ws) });
 */
export async function unhandledOf(records: readonly JournalRecord[], ws: OrgWorkspace): Promise<OrgEnvelope[]> {
  const routed = records.flatMap((r) => (isRoutedRecord(r) ? [r] : []));
  const journaled = new Set(routed.map((r) => (r.envelope as OrgEnvelope).message_id));
  // Handled: its turn is recorded and what the turn sent is journaled (a turn that ended after
  // its run stopped recorded its output, which was never routed: handing it over routes it).
  const handled = async (agent: string, id: string) =>
    (await ws.turn(agent, id))?.every((out) => journaled.has(out.message_id)) === true;
  const pending: OrgEnvelope[] = [];
  for (const record of routed) {
    if (record.expired) continue;
    const envelope = record.envelope as OrgEnvelope;
    const agents = receiversOf(envelope).filter((name) => OrgAgentSchema.safeParse(name).success);
    const done = await Promise.all(agents.map((agent) => handled(agent, envelope.message_id)));
    if (done.some((d) => !d)) pending.push(envelope);
  }
  return pending;
}
