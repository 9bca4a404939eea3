import { DedupWindow } from '../../actors/runtime/dedup-window.ts';
import { JournalOutbox } from '../../actors/runtime/journal-outbox.ts';
import { addressingOf, type Address, type Addressing } from '../../protocol/runtime/envelope-addressing.ts';
import type { JournalRecord } from '../../protocol/runtime/ack-record.ts';
import { safeParseOnce } from '../../protocol/runtime/parse-once.ts';
import { toErrorIssues } from '../../protocol/runtime/runtime-error.ts';
import type { DeliveryKind, RoutableEnvelope, RoutedRecord, RoutingError } from '../../protocol/runtime/routing.ts';
import { compileVersionRule, type VersionCheck } from '../../protocol/runtime/version-rule.ts';
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

/** Whether receivers written as `receivers` include `name`. */
const addresses = (receivers: string | readonly string[], name: string) =>
  typeof receivers === 'string' ? receivers === name : receivers.includes(name);
const SETTLED_OK = Object.freeze({ ok: true as const });

/** The supervisor is the last boundary most envelopes cross: it parses without freezing (see `safeParseOnce`). */
const LAST_BOUNDARY = { remember: false } as const;

function refusal(
  request: AdmissionRequest,
  sender: string | undefined,
  code: RoutingError['code'],
  message: string,
  issues?: RoutingError['issues'],
): Admission {
  return {
    admitted: false,
    error: issues ? { code, message, issues } : { code, message },
    sender,
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
  /** The system's addressing, compiled once: how the id, sender, receivers and kind of its envelopes are read. */
  readonly addressing: Addressing;
  private readonly checkVersion: VersionCheck | undefined;
  /** Per sender: every agent but it (a broadcast's targets), built on first use. */
  private readonly everyoneBut = new Map<string, readonly string[]>();
  /** The address of the envelope being admitted: one object reused, admission is synchronous. */
  private readonly address: Address = {
    id: '',
    sender: '',
    receivers: '',
    kind: '',
    correlation: undefined,
    expiresAt: undefined,
  };
  private readonly now: () => number;

  constructor(
    private readonly system: SystemDefinition,
    journaledIds: Iterable<string> = [],
    options: { now?: () => number } = {},
  ) {
    this.addressing = addressingOf(system.addressing);
    this.checkVersion = system.versionRule ? compileVersionRule(system.versionRule) : undefined;
    this.now = options.now ?? Date.now;
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

  /** Whether a delivery that waited for the journal is past its envelope's expiry now. */
  expiredNow(pending: PendingDelivery): boolean {
    return pending.expiresAt !== undefined && pending.expiresAt <= this.now();
  }

  admit(request: AdmissionRequest): Admission {
    const { addressing, system } = this;
    if (this.checkVersion) {
      const error = this.checkVersion(request.envelope);
      if (error)
        return refusal(request, addressing.senderOf(request.envelope), error.code, error.message, error.issues);
    }
    const parsed = safeParseOnce(system.envelope, request.envelope, LAST_BOUNDARY);
    if (!parsed.success) {
      const issues = toErrorIssues(parsed.error.issues);
      return refusal(
        request,
        addressing.senderOf(request.envelope),
        'invalid_envelope',
        `Envelope failed validation: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
        issues,
      );
    }
    const envelope: RoutableEnvelope = parsed.data;
    const address = this.address;
    const issue = addressing.read(envelope, address);
    if (issue) {
      return refusal(
        request,
        addressing.senderOf(envelope),
        'invalid_envelope',
        `Envelope failed validation: ${issue.path}: ${issue.message} Declare the system's addressing to match its envelope.`,
        [issue],
      );
    }
    const { id, sender, receivers, kind } = address;
    let targets: readonly string[];
    if (request.kind === 'broadcast') {
      const subscribers = request.topic === undefined ? undefined : system.topics?.[request.topic];
      if (!subscribers)
        return refusal(request, sender, 'unknown_topic', `Topic "${request.topic}" does not exist in ${system.name}.`);
      const missing = this.missingEdge(sender, `topic:${request.topic}`, kind);
      if (missing) return refusal(request, sender, 'unknown_edge', missing);
      targets = subscribers.filter((name) => name !== sender);
    } else if (typeof receivers === 'string') {
      if (receivers === addressing.broadcast) {
        targets = this.broadcastTargets(sender);
      } else {
        const direct = this.directTargets.get(receivers);
        if (!direct)
          return refusal(request, sender, 'unknown_agent', `No agent "${receivers}" runs in ${system.name}.`);
        targets = direct;
      }
      const missing = this.missingEdge(sender, receivers, kind);
      if (missing) return refusal(request, sender, 'unknown_edge', missing);
    } else {
      // Several receivers: every edge must exist, or none is delivered.
      const all: string[] = [];
      for (const receiver of receivers) {
        const direct = this.directTargets.get(receiver);
        if (!direct) return refusal(request, sender, 'unknown_agent', `No agent "${receiver}" runs in ${system.name}.`);
        const missing = this.missingEdge(sender, receiver, kind);
        if (missing) return refusal(request, sender, 'unknown_edge', missing);
        for (const target of direct) if (!all.includes(target)) all.push(target);
      }
      targets = all;
    }
    let inReplyTo = request.inReplyTo;
    let kindOfDelivery = request.kind;
    if (request.kind === 'response') {
      inReplyTo ??= address.correlation;
      const open = inReplyTo === undefined ? undefined : this.requests.get(inReplyTo);
      if (!open || !addresses(receivers, open.requester)) {
        return refusal(
          request,
          sender,
          'unknown_correlation',
          `No open request ${inReplyTo} from ${String(receivers)} to answer.`,
        );
      }
    } else if (request.kind === 'direct' && address.correlation !== undefined && this.requests.size > 0) {
      // A direct send that names an open request of its receiver in its correlation answers it.
      const open = this.requests.get(address.correlation);
      if (open && receivers === open.requester) {
        kindOfDelivery = 'response';
        inReplyTo = address.correlation;
      }
    }
    const journaled = !this.seen.add(id);
    if (journaled && !request.redeliver) {
      return refusal(request, sender, 'duplicate_message', `Message ${id} was already routed; it was dropped.`);
    }
    // Sent again after a revocation: its reports count from now on.
    if (this.revoked.size > 0) this.revoked.forget(id);
    const { expiresAt } = address;
    const expired = expiresAt !== undefined && expiresAt <= this.now();
    const record: RoutedRecord = { kind: kindOfDelivery, envelope };
    if (request.topic !== undefined) record.topic = request.topic;
    if (request.context !== undefined) record.context = request.context;
    if (expired) {
      // Journaled as expired, delivered to nobody; a request it answers stays open.
      record.expired = true;
      targets = NO_TARGETS;
    } else if (inReplyTo !== undefined) {
      record.correlation_id = inReplyTo;
      this.requests.delete(inReplyTo);
    } else if (kindOfDelivery === 'request') {
      record.correlation_id = id;
      this.requests.set(id, { requester: sender, to: String(receivers) });
    }
    // A redelivery is rare (a restored run's hand-over): finding its id's append in flight may scan.
    const leader = journaled ? this.pending.appending(id) : undefined;
    const deliveredEarly = system.delivery === 'pipelined' && targets.length > 0;
    // Every field set at once: one object shape for every delivery, read on the hot path.
    const pending: PendingDelivery = {
      ticket: this.nextTicket++,
      partition: system.partitionOf(envelope),
      record,
      id,
      sender,
      targets,
      expiresAt,
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

  /** Why `from -> to : kind` may not be sent (an error that says how to fix it), or `undefined` when the table has it. */
  private missingEdge(from: string, to: string, kind: string): string | undefined {
    if (this.edges.get(from)?.get(to)?.has(kind)) return undefined;
    return `${this.system.name} has no edge ${from} -> ${to} : ${kind}; add it to the routing table or send elsewhere.`;
  }

  /** Every agent but `sender`: a broadcast's targets (external addresses get none). */
  private broadcastTargets(sender: string): readonly string[] {
    let targets = this.everyoneBut.get(sender);
    if (!targets) {
      targets = Object.freeze(Object.keys(this.system.agents).filter((name) => name !== sender));
      this.everyoneBut.set(sender, targets);
    }
    return targets;
  }

  /** Queues an admitted envelope's append, or for one journaled before an ack in its turn, in the open outbox. */
  private queueAppend(pending: PendingDelivery): Admission {
    let opened: JournalOutbox | undefined;
    if (!this.outbox || this.outbox.taken) opened = this.outbox = new JournalOutbox();
    if (pending.journaled) this.outbox.requestAck();
    else this.outbox.add(pending.ticket, pending.partition, pending.record);
    return opened ? { admitted: true, pending, outbox: opened } : { admitted: true, pending };
  }

  /** Queues a record nobody waits for (an ack record) in the open outbox; returns the outbox if this opened it. */
  note(partition: string, record: JournalRecord): JournalOutbox | undefined {
    let opened: JournalOutbox | undefined;
    if (!this.outbox || this.outbox.taken) opened = this.outbox = new JournalOutbox();
    this.outbox.add(undefined, partition, record);
    return opened;
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
    const { id } = p;
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
