import { derivedUuid } from '../../actors/runtime/derived-id.ts';
import type { ServiceClock } from '../../actors/runtime/clock.ts';
import { DeadlineTimers } from '../../actors/runtime/deadline-timers.ts';
import { isoAfter, orgEscalation } from '../../actors/org/org-envelope.ts';
import type { OrgWorkspace } from '../../actors/org/workspace.ts';
import type { EscalationRecord } from '../../protocol/org/escalation-record.ts';
import type { OrgAgent, OrgEnvelope } from '../../protocol/org/envelope.ts';
import { isRoutedRecord, type JournalRecord } from '../../protocol/runtime/ack-record.ts';

type Work = Exclude<OrgEnvelope, { message_type: 'escalation' }>;

export interface ProjectDeadlinesDeps {
  clock: ServiceClock;
  /** The project's journal, in order (what was routed). */
  records: (projectId: string) => Promise<JournalRecord[]>;
  /** Hands envelopes to the project's run. */
  send: (ws: OrgWorkspace, envelopes: OrgEnvelope[]) => void;
  /** Told of a failed check (a journal or workspace read); the timer is not retried. */
  onError?: (error: unknown) => void;
}

/** The id of the `timeline` escalation raised for a late message: one per message, so raised once. */
export const timelineEscalationId = (projectId: string, messageId: string) =>
  derivedUuid(projectId, 'deadline', messageId);

const receiversOf = (m: OrgEnvelope): OrgAgent[] =>
  Array.isArray(m.destination_agent) ? m.destination_agent : [m.destination_agent];

/**
 * The org's deadline timers (spec 004), armed from the absolute times a project keeps (its
 * journal and its escalations), so a project reopened after a restart re-arms them with
 * {@link arm}: a `payload.deadline` that passes while its work is not done (no response names the
 * message and its `task_id` is not done) raises one `timeline` escalation to chief-orchestration;
 * an escalation still `open` or `routed` past its `deadline_for_resolution` goes to the user.
 *
 * @example
 * const deadlines = new ProjectDeadlines({ clock, records, send });
 * await deadlines.arm(ws); // after each message the project takes, and on open
 */
export class ProjectDeadlines {
  readonly #timers: DeadlineTimers<string>;
  readonly #keys = new Map<string, Set<string>>();

  constructor(private readonly deps: ProjectDeadlinesDeps) {
    this.#timers = new DeadlineTimers(deps.clock);
  }

  /** Arms a timer for every deadline of the project still to watch (again: arming replaces). */
  async arm(ws: OrgWorkspace): Promise<void> {
    for (const message of await this.#lateCandidates(ws)) this.armMessage(ws, message);
    for (const escalation of await ws.escalations()) {
      if (!unresolvedByResolver(escalation)) continue;
      const at = Date.parse(escalation.payload.deadline_for_resolution);
      this.#arm(ws.projectId, `escalation:${escalation.escalation_id}`, at, () =>
        this.#guard(this.#escalationPassed(ws, escalation.escalation_id)),
      );
    }
  }

  /**
   * Arms the timer of one message just routed, at once (while its agents work): when it fires,
   * the message is checked again (answered, its task done, or escalated already: nothing).
   */
  armMessage(ws: OrgWorkspace, message: OrgEnvelope): void {
    if (message.message_type === 'escalation' || message.payload.deadline === undefined) return;
    const at = Date.parse(message.payload.deadline);
    this.#arm(ws.projectId, `payload:${message.message_id}`, at, () =>
      this.#guard(this.#payloadPassed(ws, message.message_id)),
    );
  }

  /** How many of the project's timers are armed (a project with none needs no re-arming at start-up). */
  armedFor(projectId: string): number {
    const keys = this.#keys.get(projectId);
    if (!keys) return 0;
    for (const key of keys) if (!this.#timers.has(key)) keys.delete(key);
    if (keys.size === 0) this.#keys.delete(projectId);
    return keys.size;
  }

  #arm(projectId: string, what: string, at: number, fire: () => void): void {
    const key = `${projectId}:${what}`;
    this.#timers.arm(key, at, fire);
    const keys = this.#keys.get(projectId) ?? new Set<string>();
    this.#keys.set(projectId, keys.add(key));
  }

  /** How many timers are armed. */
  get size(): number {
    return this.#timers.size;
  }

  /** Cancels every timer (on close). */
  clear(): void {
    this.#timers.clear();
    this.#keys.clear();
  }

  #guard(work: Promise<void>): void {
    work.catch((error: unknown) => this.deps.onError?.(error));
  }

  /** Messages with a deadline whose work is not done and that raised no escalation yet. */
  async #lateCandidates(ws: OrgWorkspace): Promise<Work[]> {
    const routed = (await this.deps.records(ws.projectId)).flatMap((r) =>
      isRoutedRecord(r) ? [r.envelope as OrgEnvelope] : [],
    );
    const ids = new Set(routed.map((m) => m.message_id));
    const answered = new Set(
      routed.flatMap((m) => (m.message_type === 'response' ? (m.context?.related_messages?.slice(0, 1) ?? []) : [])),
    );
    const late: Work[] = [];
    for (const m of routed) {
      if (m.message_type === 'escalation' || m.payload.deadline === undefined) continue;
      if (answered.has(m.message_id) || ids.has(timelineEscalationId(ws.projectId, m.message_id))) continue;
      if (await ws.taskDone(m.payload.task_id)) continue;
      late.push(m);
    }
    return late;
  }

  async #payloadPassed(ws: OrgWorkspace, messageId: string): Promise<void> {
    const message = (await this.#lateCandidates(ws)).find((m) => m.message_id === messageId);
    if (!message) return;
    const receivers = receiversOf(message);
    const waiting = message.source_agent;
    const from = waiting === 'chief-orchestration' ? receivers[0]! : waiting;
    const now = this.deps.clock.now();
    const escalation = orgEscalation({
      from,
      priority: message.priority === 'critical' ? 'critical' : 'high',
      payload: {
        conflict_type: 'timeline',
        agents_involved: [...new Set<OrgAgent>([waiting, ...receivers])],
        positions: {
          [waiting]: `needs task ${message.payload.task_id} (${message.message_id}) done by ${message.payload.deadline}`,
          [receivers.join(', ')]: `has not done task ${message.payload.task_id} by its deadline`,
        },
        impact_if_unresolved: `What depends on task ${message.payload.task_id} waits past ${message.payload.deadline}.`,
        recommended_resolution: `Extend the deadline of ${message.payload.task_id}, or reassign or unblock it.`,
        deadline_for_resolution: isoAfter(now, 24 * 3_600_000),
      },
      prdId: ws.projectId,
      sprintId: ws.sprintId,
      related: [message.message_id],
      seed: [],
      at: now,
    });
    this.deps.send(ws, [{ ...escalation, message_id: timelineEscalationId(ws.projectId, message.message_id) }]);
  }

  async #escalationPassed(ws: OrgWorkspace, escalationId: string): Promise<void> {
    const record = await ws.escalation(escalationId);
    if (!record || !unresolvedByResolver(record)) return;
    const deadline = record.payload.deadline_for_resolution;
    await ws.putEscalation('chief-orchestration', {
      ...record,
      status: 'awaiting_user',
      resolver: 'user',
      reason: `unresolved by ${record.resolver ?? 'its resolver'} past its deadline_for_resolution (${deadline}); passed to the user`,
    });
  }
}

/** An escalation no one has resolved that is not yet the user's. */
const unresolvedByResolver = (e: EscalationRecord) => e.status === 'open' || e.status === 'routed';
