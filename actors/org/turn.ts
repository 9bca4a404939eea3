import type { OrgAgent, OrgEnvelope } from '../../protocol/org/envelope.ts';
import { isoAfter, orgEscalation, orgMessage, type OrgMessageSpec } from './org-envelope.ts';
import type { ErrorIssue } from '../../protocol/runtime/http-error.ts';
import { OFFLINE_PRODUCERS, type OrgProducers, type ProduceOptions } from './producers/org-producers.ts';
import type { OrgWorkspace } from './workspace.ts';

type Escalation = Extract<OrgEnvelope, { message_type: 'escalation' }>['payload'];

/** What a turn's send takes: the rest (project, sprint, time, id seed) comes from the turn. */
export type TurnSend = Omit<OrgMessageSpec, 'from' | 'prdId' | 'sprintId' | 'seed' | 'at'> & { label: string };

/** How a turn makes deliverables (offline rules or Claude) and the signal that aborts it. */
export interface TurnTools {
  produce?: OrgProducers;
  signal?: AbortSignal | undefined;
}

/**
 * One agent's handling of one delivered message: the workspace, how it makes deliverables, and
 * the messages it sends, each with an id derived from the message handled, the agent and a label
 * (work redone after a restart sends the same ids, which the supervisor drops as duplicates).
 */
export class Turn {
  readonly out: OrgEnvelope[] = [];
  readonly produce: OrgProducers;
  readonly signal: AbortSignal | undefined;

  constructor(
    readonly agent: OrgAgent,
    readonly message: OrgEnvelope,
    readonly ws: OrgWorkspace,
    tools: TurnTools = {},
  ) {
    this.produce = tools.produce ?? OFFLINE_PRODUCERS;
    this.signal = tools.signal;
  }

  /** What a producer is asked with: the turn's signal, and the issues to fix if a receiver rejected the last version. */
  asking(fix?: readonly ErrorIssue[]): ProduceOptions {
    return { signal: this.signal, ...(fix?.length ? { fix } : {}) };
  }

  get now(): number {
    return this.ws.now();
  }

  send(spec: TurnSend): OrgEnvelope {
    const { label, ...rest } = spec;
    const envelope = orgMessage({
      ...rest,
      from: this.agent,
      prdId: this.ws.projectId,
      sprintId: this.ws.sprintId,
      seed: [this.message.message_id, this.agent, label],
      at: this.now,
    });
    this.out.push(envelope);
    return envelope;
  }

  /** Answers the message handled (a request): to its sender, naming it first in `related_messages`. */
  respond(content: Record<string, unknown>, knowledgeRefs: string[] = []): OrgEnvelope {
    const { message } = this;
    const taskId = message.message_type === 'escalation' ? message.message_id : message.payload.task_id;
    return this.send({
      label: 'response',
      to: message.source_agent,
      type: 'response',
      priority: message.priority,
      payload: { task_id: taskId, content },
      related: [message.message_id],
      knowledgeRefs,
    });
  }

  /** Escalates to chief-orchestration in the spec's Conflict Escalation Format; resolution due in a day. */
  escalate(label: string, payload: Omit<Escalation, 'deadline_for_resolution'>, related: string[] = []): OrgEnvelope {
    const envelope = orgEscalation({
      from: this.agent,
      payload: { ...payload, deadline_for_resolution: isoAfter(this.now, 24 * 3_600_000) },
      prdId: this.ws.projectId,
      sprintId: this.ws.sprintId,
      related: [this.message.message_id, ...related],
      seed: [this.message.message_id, this.agent, label],
      at: this.now,
    });
    this.out.push(envelope);
    return envelope;
  }
}
