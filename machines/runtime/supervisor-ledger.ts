import { DedupWindow } from '../../actors/runtime/dedup-window.ts';
import { JournalOutbox } from '../../actors/runtime/journal-outbox.ts';
import { addressingOf, type Address, type Addressing } from '../../protocol/runtime/envelope-addressing.ts';
import type { JournalRecord } from '../../protocol/runtime/ack-record.ts';
import { safeParseOnce } from '../../protocol/runtime/parse-once.ts';
import { toErrorIssues } from '../../protocol/runtime/runtime-error.ts';
import type { RoutableEnvelope, RoutedRecord } from '../../protocol/runtime/routing.ts';
import { compileVersionRule, type VersionCheck } from '../../protocol/runtime/version-rule.ts';
import { OpenRequests } from './open-requests.ts';
import { OutputCommit, type HeldEvents } from './output-commit.ts';
import { PendingDeliveries, type PendingDelivery } from './pending-deliveries.ts';
import { RoutingTable } from './routing-table.ts';
import { refusal, type Admission, type AdmissionRequest } from './supervisor-admission-request.ts';
import type { SystemDefinition } from './supervisor-system.ts';

/** What a batch of journal outcomes makes due: deliveries in routing order, and agents' held events. */
interface Settlement<E = unknown> {
  due: PendingDelivery[];
  released: HeldEvents<E>[];
  /**
   * Requests closed because their own append failed, as the failure came back (before its turn
   * in routing order, so that one sent again meanwhile is a new request): their timers go.
   */
  closedRequests: readonly string[];
  /**
   * Early deliveries revoked because their append failed, as the failure came back: acknowledged
   * delivery waits for them no more, and a give-up of them is not announced (the writer may report
   * a failure before the turns before it, in another batch of acks).
   */
  revokedEarly: readonly string[];
}

/** What resolving a batch's outcomes finds: the agents' confirmed inputs, and what the failures close or revoke. */
interface Found {
  confirmed: Set<string>;
  closedRequests: string[];
  revokedEarly: string[];
}

/** Whether receivers written as `receivers` include `name`. */
const addresses = (receivers: string | readonly string[], name: string) =>
  typeof receivers === 'string' ? receivers === name : receivers.includes(name);
const SETTLED_OK = Object.freeze({ ok: true as const });

/** The supervisor is the last boundary most envelopes cross: it parses without freezing (see `safeParseOnce`). */
const LAST_BOUNDARY = { remember: false } as const;

/**
 * The supervisor's bookkeeping: admission checks (schema, routing table, duplicate), the journal
 * tickets awaiting their ack in routing order, the open requests, and for pipelined delivery the
 * output-commit rule's held events. It is mutable on purpose: the routing hot path must not copy
 * a set or a queue per envelope.
 */
export class SupervisorLedger<E = unknown> {
  readonly seen = new DedupWindow();
  readonly requests = new OpenRequests();
  /**
   * Requests whose early delivery was revoked: a late report of them is refused. Forgotten when
   * the id is admitted again (the sender retried) or after the dedup window, like seen ids.
   */
  readonly revoked = new DedupWindow();
  /** The system's addressing, compiled once: how the id, sender, receivers and kind of its envelopes are read. */
  readonly addressing: Addressing;
  /** What agents produced while a delivery to them was not durable (pipelined delivery). */
  readonly outputs = new OutputCommit<E>();
  private readonly table: RoutingTable;
  private readonly pending = new PendingDeliveries();
  private nextTicket = 1;
  /** Per ticket of an append in flight: the redeliveries of its id, which follow its outcome. */
  private readonly followers = new Map<number, number[]>();
  /** Appends admitted since the journal writer last took an outbox. */
  private outbox: JournalOutbox | undefined;
  /** An outbox opened since the caller last took it: it must be handed to the writer. */
  private opened: JournalOutbox | undefined;
  private readonly checkVersion: VersionCheck | undefined;
  /** The address of the envelope being admitted: one object reused, admission is synchronous. */
  // Stryker disable ObjectLiteral,StringLiteral: `addressing.read` writes every field before admission reads any
  private readonly address: Address = {
    id: '',
    sender: '',
    receivers: '',
    kind: '',
    correlation: undefined,
    expiresAt: undefined,
  };
  // Stryker restore ObjectLiteral,StringLiteral
  private readonly now: () => number;
  private readonly pipelined: boolean;

  constructor(
    private readonly system: SystemDefinition,
    journaledIds: Iterable<string> = [],
    options: { now?: () => number } = {},
  ) {
    this.addressing = addressingOf(system.addressing);
    this.table = new RoutingTable(system, this.addressing.broadcast);
    this.checkVersion = system.versionRule ? compileVersionRule(system.versionRule) : undefined;
    this.now = options.now ?? Date.now;
    this.pipelined = system.delivery === 'pipelined';
    for (const id of journaledIds) this.seen.add(id);
  }

  isAgent(name: string | undefined): name is string {
    // Own names only: `in` would take `toString` or `constructor` for an agent.
    return name !== undefined && Object.hasOwn(this.system.agents, name);
  }

  /** Whether a delivery that waited for the journal is past its envelope's expiry now. */
  expiredNow(pending: PendingDelivery): boolean {
    return pending.expiresAt !== undefined && pending.expiresAt <= this.now();
  }

  /** Checks an envelope (version, schema, addressing, routing table, open request, duplicate) and queues its append. */
  admit(request: AdmissionRequest): Admission {
    const { addressing, system } = this;
    if (this.checkVersion) {
      const error = this.checkVersion(request.envelope);
      if (error) return refusal(request, addressing.senderOf(request.envelope), error, error.issues);
    }
    const parsed = safeParseOnce(system.envelope, request.envelope, LAST_BOUNDARY);
    if (!parsed.success) {
      const issues = toErrorIssues(parsed.error.issues);
      const message = `Envelope failed validation: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`;
      return refusal(request, addressing.senderOf(request.envelope), { code: 'invalid_envelope', message }, issues);
    }
    const envelope: RoutableEnvelope = parsed.data;
    const address = this.address;
    const issue = addressing.read(envelope, address);
    if (issue) {
      const message = `Envelope failed validation: ${issue.path}: ${issue.message} Declare the system's addressing to match its envelope.`;
      return refusal(request, addressing.senderOf(envelope), { code: 'invalid_envelope', message }, [issue]);
    }
    const { id, sender, receivers } = address;
    const ruled = system.admissionRule?.(envelope, address);
    if (ruled) return refusal(request, sender, ruled);
    const routed = this.table.targetsOf(address, request.topic, request.kind === 'broadcast');
    if (!Array.isArray(routed)) return refusal(request, sender, routed as Exclude<typeof routed, readonly string[]>);
    let targets = routed as readonly string[];
    let inReplyTo = request.inReplyTo;
    let kindOfDelivery = request.kind;
    if (request.kind === 'response') {
      inReplyTo ??= address.correlation;
      const open = this.requests.answerable(inReplyTo);
      if (!open || !addresses(receivers, open.requester)) {
        const message = `No open request ${inReplyTo} from ${String(receivers)} to answer.`;
        return refusal(request, sender, { code: 'unknown_correlation', message });
      }
    } else if (request.kind === 'direct' && address.correlation !== undefined && this.requests.size > 0) {
      // A direct send that names an open request of its receiver in its correlation answers it.
      const open = this.requests.answerable(address.correlation);
      if (open && receivers === open.requester) {
        kindOfDelivery = 'response';
        inReplyTo = address.correlation;
      }
    }
    const journaled = !this.seen.add(id);
    if (journaled && !request.redeliver) {
      const message = `Message ${id} was already routed; it was dropped.`;
      return refusal(request, sender, { code: 'duplicate_message', message });
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
      targets = RoutingTable.NO_TARGETS;
    } else if (inReplyTo !== undefined) {
      record.correlation_id = inReplyTo;
      // Closed once the answer is durable (see `OpenRequests`).
      this.requests.answering(inReplyTo, id);
    } else if (kindOfDelivery === 'request') {
      record.correlation_id = id;
      this.requests.open(id, sender, String(receivers));
    }
    // A redelivery is rare (a restored run's hand-over): finding its id's append in flight may scan.
    const leader = journaled ? this.pending.appending(id) : undefined;
    const deliveredEarly = this.pipelined && targets.length > 0;
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
    if (deliveredEarly && !pending.settled) this.outputs.deliveredEarly(pending.ticket, targets);
    this.pending.add(pending);
    this.queueAppend(pending);
    return pending;
  }

  /** Queues an admitted envelope's append, or for one journaled before an ack in its turn, in the open outbox. */
  private queueAppend(pending: PendingDelivery): void {
    const outbox = this.openOutbox();
    if (pending.journaled) outbox.requestAck();
    else outbox.add(pending.ticket, pending.partition, pending.record);
  }

  /** Queues an ack record in the open outbox; with a `ticket` (not a delivery's), its outcome comes back in the acks. */
  note(partition: string, record: JournalRecord, ticket?: number): void {
    this.openOutbox().add(ticket, partition, record);
  }

  /** The outbox opened since the last call, if one was: the caller hands it to the journal writer. */
  takeOpened(): JournalOutbox | undefined {
    const opened = this.opened;
    this.opened = undefined;
    return opened;
  }

  private openOutbox(): JournalOutbox {
    if (!this.outbox || this.outbox.taken) this.outbox = this.opened = new JournalOutbox();
    return this.outbox;
  }

  /**
   * Whether an event from `agent` must wait (pipelined delivery): an envelope delivered to it is
   * not durable yet, or earlier events of it wait already (they keep their order).
   */
  waits(agent: string | undefined): agent is string {
    return this.outputs.waits(agent);
  }

  hold(agent: string, event: E): void {
    this.outputs.hold(agent, event);
  }

  /** Whether the early delivery of request `requestId` was revoked (its append failed). */
  isRevoked(requestId: string): boolean {
    return this.revoked.has(requestId);
  }

  /** No envelope waits for the journal and no agent's events wait: everything handed in so far is settled. */
  idle(): boolean {
    return this.pending.size === 0 && this.outputs.holding === 0;
  }

  /**
   * Marks journal outcomes; returns the deliveries now due, in routing order, and the held events
   * of agents whose every early delivery is now settled.
   */
  settle(acked: readonly number[], failed: readonly { ticket: number; message: string }[]): Settlement<E> {
    // Stryker disable next-line ArrayDeclaration: a stand-in id names no open request and no tracked delivery, so closing or revoking it changes nothing
    const found: Found = { confirmed: new Set<string>(), closedRequests: [], revokedEarly: [] };
    for (const ticket of acked) this.resolve(ticket, SETTLED_OK, found);
    for (const { ticket, message } of failed) this.resolve(ticket, { ok: false, message }, found);
    const { confirmed, closedRequests, revokedEarly } = found;
    const due = this.pending.takeSettled();
    const released = confirmed.size > 0 ? this.outputs.release(confirmed) : [];
    return { due, released, closedRequests, revokedEarly };
  }

  /** Records an append's outcome, for its ticket and the redeliveries that wait on it. */
  private resolve(ticket: number, outcome: NonNullable<PendingDelivery['settled']>, found: Found): void {
    const p = this.pending.get(ticket);
    if (!p || p.settled) return;
    p.settled = outcome;
    const { id } = p;
    if (!outcome.ok) {
      // A message that never reached the journal was never routed: its id may be sent again.
      this.seen.forget(id);
      // A request (only a request is open under its own id) is closed now: sent again before its
      // turn in routing order, it is a new one.
      if (this.requests.close(id)) found.closedRequests.push(id);
      if (p.deliveredEarly) {
        this.revoked.add(id);
        this.outputs.revoke(id, p.targets);
        found.revokedEarly.push(id);
      }
    }
    if (p.deliveredEarly) this.outputs.settled(p.ticket, p.targets, found.confirmed);
    const followers = this.followers.size > 0 ? this.followers.get(ticket) : undefined;
    if (!followers) return;
    this.followers.delete(ticket);
    for (const follower of followers) this.resolve(follower, outcome, found);
  }
}
