import type { OrgEnvelope } from '../../protocol/org/envelope.ts';
import { isRoutedRecord, type JournalRecord } from '../../protocol/runtime/ack-record.ts';
import type { RoutingError } from '../../protocol/runtime/routing.ts';

type Refusal = Pick<RoutingError, 'code' | 'message' | 'issues'>;

interface ProjectRequests {
  /** Request id -> the receivers that have not answered it yet. */
  open: Map<string, Set<string>>;
  /** Every request or response id seen (journaled, or admitted since): one handed over again passes. */
  seen: Set<string>;
}

const receiversOf = (m: OrgEnvelope): string[] =>
  Array.isArray(m.destination_agent) ? m.destination_agent : [m.destination_agent];

/**
 * The open requests of each project, for the org's admission rule (spec 004): a `response` must
 * name, in `context.related_messages[0]`, a request sent to its sender that its sender has not
 * answered yet; anything else is refused as `unknown_correlation`. Each project is loaded from
 * its journal before its run takes a message ({@link load}); a project not loaded is not checked.
 *
 * @example
 * requests.load(projectId, records);
 * requests.admit(envelope); // undefined, or the refusal
 */
export class OpenRequests {
  readonly #projects = new Map<string, ProjectRequests>();

  /** Reads a project's open requests from its journal (replacing what was known). */
  load(projectId: string, records: readonly JournalRecord[]): void {
    const project: ProjectRequests = { open: new Map(), seen: new Set() };
    this.#projects.set(projectId, project);
    for (const record of records)
      if (isRoutedRecord(record) && !record.expired) this.#take(project, record.envelope as OrgEnvelope);
  }

  /** Whether the project's requests are known. */
  has(projectId: string): boolean {
    return this.#projects.has(projectId);
  }

  /** Forgets a project (it rests: loaded again from its journal when it wakes). */
  forget(projectId: string): void {
    this.#projects.delete(projectId);
  }

  /** Checks a message about to be routed and notes it; a refusal leaves everything as it was. */
  admit(envelope: OrgEnvelope): Refusal | undefined {
    const refused = this.check(envelope);
    const project = this.#projects.get(envelope.context?.prd_id ?? '');
    if (!refused && project) this.#take(project, envelope);
    return refused;
  }

  /** The refusal `admit` would give, changing nothing (a route answers with it before sending). */
  check(envelope: OrgEnvelope): Refusal | undefined {
    const project = this.#projects.get(envelope.context?.prd_id ?? '');
    if (!project || project.seen.has(envelope.message_id) || envelope.message_type !== 'response') return undefined;
    const named = envelope.context?.related_messages?.[0] ?? '';
    if (project.open.get(named)?.has(envelope.source_agent)) return undefined;
    const message =
      `Response ${envelope.message_id} names ${named} in context.related_messages[0], which is no open ` +
      `request to ${envelope.source_agent}; name the request it answers (each is answered once).`;
    return { code: 'unknown_correlation', message, issues: [{ path: 'context.related_messages', message }] };
  }

  #take(project: ProjectRequests, envelope: OrgEnvelope): void {
    project.seen.add(envelope.message_id);
    if (envelope.message_type === 'request' && !project.open.has(envelope.message_id))
      project.open.set(envelope.message_id, new Set(receiversOf(envelope)));
    if (envelope.message_type === 'response') {
      const named = envelope.context?.related_messages?.[0] ?? '';
      const waiting = project.open.get(named);
      waiting?.delete(envelope.source_agent);
      if (waiting?.size === 0) project.open.delete(named);
    }
  }
}
