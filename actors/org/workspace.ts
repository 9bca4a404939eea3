import type { DeliverableType } from '../../protocol/org/deliverables.ts';
import type { EscalationRecord } from '../../protocol/org/escalation-record.ts';
import type { OrgEnvelope } from '../../protocol/org/envelope.ts';
import type { Prd } from '../../protocol/org/prd.ts';
import type { SharedState } from '../runtime/shared-state/shared-state.ts';
import { KnowledgeGraph } from './knowledge-graph.ts';

/** A published deliverable: its body, version (1, 2, ...) and schema version. */
export interface Deliverable<T = unknown> {
  type: DeliverableType;
  version: number;
  schema_version: string;
  author: string;
  body: T;
}

/** What a sender keeps of the handoffs of one deliverable type to one receiver. */
export interface HandoffRound {
  round: number;
  /** The deliverable version the open round hands off, and whether the receiver accepted it. */
  version: number;
  accepted: boolean;
  /** The message id of the latest handoff_notification of the round. */
  notification?: string;
}

/**
 * One project's workspace on shared state (`project/...`, its own scope instance) and its owner's
 * knowledge graph: what agents read and write besides the messages they send. Every write is
 * durable before it resolves.
 */
export class OrgWorkspace {
  readonly knowledge: KnowledgeGraph;

  constructor(
    readonly state: SharedState,
    readonly projectId: string,
    readonly sprintId: string,
    readonly owner: string,
    readonly now: () => number,
  ) {
    this.knowledge = new KnowledgeGraph(state, now);
  }

  /** The same workspace over another view of its state (a turn's: see TurnState). */
  withState(state: SharedState): OrgWorkspace {
    return new OrgWorkspace(state, this.projectId, this.sprintId, this.owner, this.now);
  }

  async get<T>(key: string): Promise<T | undefined> {
    return (await this.state.get(`project/${key}`))?.value as T | undefined;
  }

  async put(role: string, key: string, value: unknown): Promise<void> {
    await this.state.write(role, [{ key: `project/${key}`, value }]);
  }

  /** The PRD as amended so far, and its version. */
  async prd(): Promise<{ version: number; prd: Prd }> {
    const prd = await this.get<{ version: number; prd: Prd }>('prd');
    if (!prd) throw new Error(`Project ${this.projectId} has no PRD yet; create the project first.`);
    return prd;
  }

  /** The latest version of a deliverable type, or the one named by `version`. */
  deliverable<T>(type: DeliverableType, version?: number): Promise<Deliverable<T> | undefined> {
    return this.get<Deliverable<T>>(
      version === undefined ? `deliverables/${type}` : `deliverables/${type}/v${version}`,
    );
  }

  /** Publishes a new version of a deliverable; returns it with its location. */
  async publish<T>(role: string, type: DeliverableType, body: T): Promise<Deliverable<T> & { location: string }> {
    const latest = await this.deliverable(type);
    const deliverable: Deliverable<T> = {
      type,
      version: (latest?.version ?? 0) + 1,
      schema_version: '1.0',
      author: role,
      body,
    };
    await this.state.write(role, [
      { key: `project/deliverables/${type}`, value: deliverable },
      { key: `project/deliverables/${type}/v${deliverable.version}`, value: deliverable },
    ]);
    return { ...deliverable, location: locationOf(type, deliverable.version) };
  }

  handoffRound(from: string, to: string, type: string): Promise<HandoffRound | undefined> {
    return this.get<HandoffRound>(`handoffs/${from}>${to}:${type}`);
  }

  putHandoffRound(role: string, from: string, to: string, type: string, round: HandoffRound): Promise<void> {
    return this.put(role, `handoffs/${from}>${to}:${type}`, round);
  }

  /** How many times `receiver` rejected handoff `handoffId`. */
  async rejections(handoffId: string): Promise<number> {
    return (await this.get<number>(`rejections/${handoffId}`)) ?? 0;
  }

  setRejections(role: string, handoffId: string, count: number): Promise<void> {
    return this.put(role, `rejections/${handoffId}`, count);
  }

  async taskDone(taskId: string): Promise<boolean> {
    return (await this.get<boolean>(`tasks/${taskId}`)) === true;
  }

  markTaskDone(role: string, taskId: string): Promise<void> {
    return this.put(role, `tasks/${taskId}`, true);
  }

  /** Parks a message whose `payload.dependencies` are not all done; the holder looks again after its next work. */
  hold(agent: string, message: OrgEnvelope): Promise<void> {
    return this.put(agent, `held/${agent}/${message.message_id}`, message);
  }

  async held(agent: string): Promise<OrgEnvelope[]> {
    return (await this.state.list(`project/held/${agent}/`)).map((entry) => entry.value as OrgEnvelope);
  }

  async release(agent: string, messageId: string): Promise<void> {
    await this.state.write(agent, [{ key: `project/held/${agent}/${messageId}`, delete: true }]);
  }

  /**
   * What `agent` sent when it handled message `messageId`, if it did: a message handed over
   * again (a redelivery, a hand-over after a restart) is answered with it and not handled twice.
   */
  turn(agent: string, messageId: string): Promise<OrgEnvelope[] | undefined> {
    return this.get<OrgEnvelope[]>(`turns/${agent}/${messageId}`);
  }

  /** The write recording that `agent` handled `messageId` and what it sent (durable before they are routed). */
  static turnWrite(agent: string, messageId: string, out: readonly OrgEnvelope[]) {
    return { key: `project/turns/${agent}/${messageId}`, value: out };
  }

  escalation(id: string): Promise<EscalationRecord | undefined> {
    return this.get<EscalationRecord>(`escalations/${id}`);
  }

  putEscalation(role: string, record: EscalationRecord): Promise<void> {
    return this.put(role, `escalations/${record.escalation_id}`, record);
  }

  async escalations(): Promise<EscalationRecord[]> {
    return (await this.state.list('project/escalations/')).map((entry) => entry.value as EscalationRecord);
  }
}

/** Where a deliverable version lives in a project's workspace (a handoff's `location`). */
export const locationOf = (type: string, version: number) => `workspace://deliverables/${type}/v${version}`;

/** The type and version a location names, if it is a workspace location. */
export function parseLocation(location: string): { type: string; version: number } | undefined {
  const match = /^workspace:\/\/deliverables\/([a-z_]+)\/v(\d+)$/.exec(location);
  return match ? { type: match[1]!, version: Number(match[2]) } : undefined;
}
