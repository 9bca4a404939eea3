import { DedupWindow } from '../../actors/runtime/dedup-window.ts';
import { JournalOutbox } from '../../actors/runtime/journal-outbox.ts';
import { safeParseOnce } from '../../protocol/runtime/parse-once.ts';
import { toErrorIssues } from '../../protocol/runtime/runtime-error.ts';
import type { DeliveryKind, RoutableEnvelope, RoutedRecord, RoutingError } from '../../protocol/runtime/routing.ts';
import { PendingDeliveries, type PendingDelivery } from './pending-deliveries.ts';
import type { SystemDefinition } from './supervisor-system.ts';

/**
 * What an agent reported or sent while an envelope delivered to it was not durable yet
 * (pipelined delivery), in arrival order; `revoked` names such deliveries whose append failed.
 */
interface HeldEvents<E = unknown> {
  agent: string;
  events: E[];
  revoked: string[];
}

/** What a batch of journal outcomes makes due: deliveries in routing order, and agents' held events. */
interface Settlement<E = unknown> {
  due: PendingDelivery[];
  released: HeldEvents<E>[];
}

/** The outcome of admitting one envelope: delivered later, or refused now with an error. */
export type Admission =
  | {
      admitted: true;
      pending: PendingDelivery;
      /** Set when this admission opened the outbox its append (or ack) waits in: hand it to the writer. */
      outbox?: JournalOutbox;
    }
  | { admitted: false; error: RoutingError; sender: string | undefined; envelope: unknown };

/** What a caller asks the ledger to admit. */
interface AdmissionRequest {
  kind: DeliveryKind;
  envelope: unknown;
  topic?: string;
  /** For a response: the message id of the request it answers. */
  inReplyTo?: string;
  context?: unknown;
  /**
   * Idempotent delivery: an envelope whose id was already journaled is delivered again without a
   * second journal entry (a restarted run handing in-flight work to its new agents).
   */
  redeliver?: boolean;
}

const NO_TARGETS: readonly string[] = Object.freeze([]);
const SETTLED_OK = Object.freeze({ ok: true as const });

/** The supervisor is the last boundary most envelopes cross: it parses without freezing (see `safeParseOnce`). */
const LAST_BOUNDARY = { remember: false } as const;

function refusal(
  request: AdmissionRequest,
  code: RoutingError['code'],
  message: string,
  issues?: RoutingError['issues'],
): Admission {
  const rawSender = (request.envelope as { from_agent?: unknown } | null)?.from_agent;
  return {
    admitted: false,
    error: issues ? { code, message, issues } : { code, message },
    sender: typeof rawSender === 'string' ? rawSender : undefined,
    envelope: request.envelope,
  };
}

/**
 * The supervisor's bookkeeping: admission checks (schema, agent, edge, duplicate), the journal
 * tickets awaiting their ack in routing order, the open requests, and for pipelined delivery
 * what each agent got early and what it produced meanwhile. It is mutable on purpose: the
 * routing hot path must not copy a set or a queue per envelope.
 */
export class SupervisorLedger<E = unknown> {
  readonly seen = new DedupWindow();
  readonly requests = new Map<string, { requester: string; to: string }>();
  /** from -> to -> data types: looked up without building a key string per envelope. */
  private readonly edges = new Map<string, Map<string, Set<string>>>();
  /** Per address a direct send may go to: its agent alone, or none for an external one (shared, frozen lists). */
  private readonly directTargets = new Map<string, readonly string[]>();
  private readonly pending = new PendingDeliveries();
  private nextTicket = 1;
  /** Per ticket of an append in flight: the redeliveries of its id, which follow its outcome. */
  private readonly followers = new Map<number, number[]>();
  /** Per agent: tickets delivered to it early whose append is not durable yet. */
  private readonly undurable = new Map<string, Set<number>>();
  /** Per agent: what waits for those appends. */
  private readonly held = new Map<string, HeldEvents<E>>();
  /**
   * Requests whose early delivery was revoked: a late report of them is refused. Forgotten when
   * the id is admitted again (the sender retried) or after the dedup window, like seen ids.
   */
  readonly revoked = new DedupWindow();
  /** Appends admitted since the journal writer last took an outbox. */
  private outbox: JournalOutbox | undefined;

  constructor(
    private readonly system: SystemDefinition,
    journaledIds: Iterable<string> = [],
  ) {
    for (const id of journaledIds) this.seen.add(id);
    for (const { from, to, data_type } of system.routes) {
      let tos = this.edges.get(from);
      if (!tos) this.edges.set(from, (tos = new Map()));
      let types = tos.get(to);
      if (!types) tos.set(to, (types = new Set()));
      types.add(data_type);
    }
    for (const name of system.externals ?? []) this.directTargets.set(name, NO_TARGETS);
    for (const name of Object.keys(system.agents)) this.directTargets.set(name, Object.freeze([name]));
  }

  isAgent(name: string | undefined): name is string {
    return name !== undefined && name in this.system.agents;
  }

  admit(request: AdmissionRequest): Admission {
    const parsed = safeParseOnce(this.system.envelope, request.envelope, LAST_BOUNDARY);
    if (!parsed.success) {
      const issues = toErrorIssues(parsed.error.issues);
      return refusal(
        request,
        'invalid_envelope',
        `Envelope failed validation: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
        issues,
      );
    }
    const envelope: RoutableEnvelope = parsed.data;
    let targets: readonly string[];
    let edgeTo = envelope.to_agent;
    if (request.kind === 'broadcast') {
      const subscribers = request.topic === undefined ? undefined : this.system.topics?.[request.topic];
      if (!subscribers)
        return refusal(request, 'unknown_topic', `Topic "${request.topic}" does not exist in ${this.system.name}.`);
      edgeTo = `topic:${request.topic}`;
      targets = subscribers.filter((name) => name !== envelope.from_agent);
    } else {
      const direct = this.directTargets.get(envelope.to_agent);
      if (!direct) {
        return refusal(request, 'unknown_agent', `No agent "${envelope.to_agent}" runs in ${this.system.name}.`);
      }
      targets = direct;
    }
    if (!this.edges.get(envelope.from_agent)?.get(edgeTo)?.has(envelope.data_type)) {
      return refusal(
        request,
        'unknown_edge',
        `${this.system.name} has no edge ${envelope.from_agent} -> ${edgeTo} : ${envelope.data_type}; add it to the routing table or send elsewhere.`,
      );
    }
    if (request.kind === 'response') {
      const open = request.inReplyTo === undefined ? undefined : this.requests.get(request.inReplyTo);
      if (!open || open.requester !== envelope.to_agent) {
        return refusal(
          request,
          'unknown_correlation',
          `No open request ${request.inReplyTo} from ${envelope.to_agent} to answer.`,
        );
      }
    }
    const journaled = !this.seen.add(envelope.message_id);
    if (journaled && !request.redeliver) {
      return refusal(
        request,
        'duplicate_message',
        `Message ${envelope.message_id} was already routed; it was dropped.`,
      );
    }
    // Sent again after a revocation: its reports count from now on.
    if (this.revoked.size > 0) this.revoked.forget(envelope.message_id);
    const record: RoutedRecord = { kind: request.kind, envelope };
    if (request.topic !== undefined) record.topic = request.topic;
    if (request.context !== undefined) record.context = request.context;
    if (request.inReplyTo !== undefined) {
      record.correlation_id = request.inReplyTo;
      this.requests.delete(request.inReplyTo);
    }
    if (request.kind === 'request') {
      record.correlation_id = envelope.message_id;
      this.requests.set(envelope.message_id, { requester: envelope.from_agent, to: envelope.to_agent });
    }
    // A redelivery is rare (a restored run's hand-over): finding its id's append in flight may scan.
    const leader = journaled ? this.pending.appending(envelope.message_id) : undefined;
    const deliveredEarly = this.system.delivery === 'pipelined' && targets.length > 0;
    // Every field set at once: one object shape for every delivery, read on the hot path.
    const pending: PendingDelivery = {
      ticket: this.nextTicket++,
      partition: this.system.partitionOf(envelope),
      record,
      targets,
      journaled,
      deliveredEarly,
      settled: journaled && leader === undefined ? SETTLED_OK : undefined,
    };
    if (leader !== undefined) this.followers.set(leader, [...(this.followers.get(leader) ?? []), pending.ticket]);
    if (deliveredEarly) {
      if (!pending.settled) {
        for (const target of targets) {
          let tickets = this.undurable.get(target);
          if (!tickets) this.undurable.set(target, (tickets = new Set()));
          tickets.add(pending.ticket);
        }
      }
    }
    this.pending.add(pending);
    return this.queueAppend(pending);
  }

  /** Queues an admitted envelope's append, or for one journaled before an ack in its turn, in the open outbox. */
  private queueAppend(pending: PendingDelivery): Admission {
    let opened: JournalOutbox | undefined;
    if (!this.outbox || this.outbox.taken) opened = this.outbox = new JournalOutbox();
    if (pending.journaled) this.outbox.requestAck();
    else this.outbox.add(pending.ticket, pending.partition, pending.record);
    return opened ? { admitted: true, pending, outbox: opened } : { admitted: true, pending };
  }

  /**
   * Whether an event from `agent` must wait (pipelined delivery): an envelope delivered to it is
   * not durable yet, or earlier events of it wait already (they keep their order).
   */
  waits(agent: string | undefined): agent is string {
    return agent !== undefined && (this.undurable.has(agent) || this.held.has(agent));
  }

  hold(agent: string, event: E): void {
    let held = this.held.get(agent);
    if (!held) this.held.set(agent, (held = { agent, events: [], revoked: [] }));
    held.events.push(event);
  }

  /** Whether the early delivery of request `requestId` was revoked (its append failed). */
  isRevoked(requestId: string): boolean {
    return this.revoked.has(requestId);
  }

  /** No envelope waits for the journal and no agent's events wait: everything handed in so far is settled. */
  idle(): boolean {
    return this.pending.size === 0 && this.held.size === 0;
  }

  /**
   * Marks journal outcomes; returns the deliveries now due, in routing order, and the held events
   * of agents whose every early delivery is now settled.
   */
  settle(acked: readonly number[], failed: readonly { ticket: number; message: string }[]): Settlement<E> {
    const confirmed = new Set<string>();
    for (const ticket of acked) this.resolve(ticket, SETTLED_OK, confirmed);
    for (const { ticket, message } of failed) this.resolve(ticket, { ok: false, message }, confirmed);
    const due = this.pending.takeSettled();
    const released: HeldEvents<E>[] = [];
    for (const agent of confirmed) {
      const held = this.held.get(agent);
      if (!held || this.undurable.has(agent)) continue;
      this.held.delete(agent);
      released.push(held);
    }
    return { due, released };
  }

  /** Records an append's outcome, for its ticket and the redeliveries that wait on it. */
  private resolve(ticket: number, outcome: NonNullable<PendingDelivery['settled']>, confirmed: Set<string>): void {
    const p = this.pending.get(ticket);
    if (!p || p.settled) return;
    p.settled = outcome;
    const id = p.record.envelope.message_id;
    if (!outcome.ok) {
      // A message that never reached the journal was never routed: its id may be sent again.
      this.seen.forget(id);
      if (p.record.kind === 'request') this.requests.delete(id);
      if (p.deliveredEarly) {
        this.revoked.add(id);
        for (const target of p.targets) this.held.get(target)?.revoked.push(id);
      }
    }
    this.confirm(p, confirmed);
    const followers = this.followers.size > 0 ? this.followers.get(ticket) : undefined;
    if (!followers) return;
    this.followers.delete(ticket);
    for (const follower of followers) this.resolve(follower, outcome, confirmed);
  }

  /** An early delivery's append is settled: its targets no longer wait for it. */
  private confirm(p: PendingDelivery, agents: Set<string>): void {
    if (!p.deliveredEarly) return;
    for (const target of p.targets) {
      const tickets = this.undurable.get(target);
      if (!tickets?.delete(p.ticket)) continue;
      if (tickets.size === 0) this.undurable.delete(target);
      agents.add(target);
    }
  }

  /** Closes an open request that timed out; false when it was answered already. */
  expire(correlationId: string): { requester: string; to: string } | undefined {
    const open = this.requests.get(correlationId);
    this.requests.delete(correlationId);
    return open;
  }
}
