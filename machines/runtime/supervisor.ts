/**
 * The supervisor of one multi-agent system: it spawns the system's agents by name and routes
 * every envelope between them (validate, check the routing table, drop duplicates, journal, then
 * deliver), answering a refused envelope's sender with a `supervisor.rejected` error. It reads
 * each envelope only through its system's addressing (spec 000's fields by default), so every
 * spec's envelope is routed and journaled verbatim; an envelope past its expiry is journaled as
 * expired and emitted as `supervisor.expired`, never delivered. With
 * `delivery: 'pipelined'` an agent gets an envelope once its append is issued, and the
 * output-commit rule holds back what depends on it until it is durable (see `SystemDefinition`).
 * With `acks`, an envelope that needs an ack is redelivered until its receiver acks, then
 * reported undeliverable (`supervisor-acks.ts`).
 */
import { emit, enqueueActions, sendTo, setup, type AnyActorLogic, type AnyActorRef } from 'xstate';
import { createJournalWriter } from '../../actors/runtime/journal-writer.ts';
import type { Journal } from '../../actors/runtime/journal.ts';
import type { JournalRecord } from '../../protocol/runtime/ack-record.ts';
import type { AgentReport } from '../../protocol/runtime/agent-report.ts';
import { addressingOf } from '../../protocol/runtime/envelope-addressing.ts';
import { AckDelivery } from './ack-delivery.ts';
import {
  ackItemOf,
  applyAckEffects,
  deliverTracked,
  handleThrottle,
  rescheduleAckTimer,
  restoreAcks,
  type AckStep,
} from './supervisor-acks.ts';
import {
  deliveryOf,
  envelopesOf,
  isRunningChild,
  journalRefusal,
  senderOf,
  type SupervisorEmitted,
  type SupervisorEvent,
  type SupervisorRejectedEvent,
} from './supervisor-events.ts';
import type { PendingDelivery } from './pending-deliveries.ts';
import { SupervisorLedger, type Admission } from './supervisor-ledger.ts';
import type { SystemDefinition } from './supervisor-system.ts';

export type {
  AgentDeliveryEvent,
  SupervisorEmitted,
  SupervisorEvent,
  SupervisorRejectedEvent,
  SupervisorSendEvent,
} from './supervisor-events.ts';

interface SupervisorOptions {
  /** Where routed envelopes (and, with `acks`, ack records) are appended. */
  journal: Journal<JournalRecord>;
  /** How long message ids are remembered for duplicate detection; default one hour. */
  dedupWindowMs?: number;
  /**
   * The current time in ms, against which envelopes expire: the actor system's clock (the run
   * host passes its `ServiceClock`'s `now`, a `SimulatedClock`'s in tests); `Date.now` by default.
   */
  now?: () => number;
}

/**
 * What one supervisor actor starts with (`{}` for nothing special), so that one machine serves
 * every run of a system: `createActor(machine, { input: { journaledIds, agentInputs } })`.
 */
export interface SupervisorInput {
  /** Ids already in the journal (of a restored run): they count as seen. */
  journaledIds?: Iterable<string>;
  /** Input of named agents for this actor (a run id, say); the system's `agentInput` otherwise. */
  agentInputs?: Readonly<Record<string, unknown>>;
  /** A restored run's journal records: with `acks`, what was pending an ack is re-armed from them. */
  journal?: readonly JournalRecord[];
}

/** What observers hear once an envelope is durable: delivered to agents, or bound for an external address. */
type RoutedEvent = Extract<SupervisorEmitted, { type: 'supervisor.routed' | 'supervisor.outbound' }>;

interface DeliverParams {
  target: string;
  pending: PendingDelivery;
}

/** The named actions of the hot path, as `enqueue` takes them (its typed overloads cannot name actions of the same `setup`). */
type HotAction = { type: 'deliverRecord'; params: DeliverParams } | { type: 'emitRouted'; params: RoutedEvent };
const hot = (enqueue: unknown) => enqueue as (action: HotAction) => void;

interface SupervisorContext {
  ledger: SupervisorLedger<SupervisorEvent>;
  agentInputs: Readonly<Record<string, unknown>>;
  /** Acknowledged delivery, for a system with `acks`. */
  acks: AckDelivery | undefined;
}

const HOUR_MS = 3_600_000;

/**
 * Creates the supervisor machine of one system.
 *
 * @example
 * const machine = createSupervisorMachine(nutritionSystem, { journal });
 * const supervisor = createActor(machine, { input: {} }).start();
 * supervisor.send({ type: 'supervisor.send', envelope });
 */
export function createSupervisorMachine(system: SystemDefinition, options: SupervisorOptions) {
  const agentNames = Object.keys(system.agents);
  const addressing = addressingOf(system.addressing);
  const requestTimeoutMs = system.requestTimeoutMs ?? 30_000;
  // Only pipelined delivery holds what an agent produces; a durable system has no such transitions.
  const pipelined = system.delivery === 'pipelined';
  const now = options.now ?? Date.now;
  // Acknowledged delivery runs only where the addressing says where an envelope asks for acks.
  const ackPolicyOf = system.addressing?.ack ? addressing.ackPolicyOf : undefined;
  /** Delivers to its targets: asking for an ack when the envelope needs one, on the hot path otherwise. */
  const deliver = (enqueue: unknown, self: AnyActorRef, context: SupervisorContext, pending: PendingDelivery) => {
    const { acks, ledger } = context;
    const policy = acks && ackPolicyOf?.(pending.record.envelope);
    if (!policy) {
      for (const target of pending.targets) hot(enqueue)({ type: 'deliverRecord', params: { target, pending } });
      return;
    }
    const step: AckStep = { enqueue, self, acks, ledger, system, now: now() };
    const item = ackItemOf(pending);
    for (const target of pending.targets) deliverTracked(step, item, target, policy);
    rescheduleAckTimer(step);
  };
  const admitOrHold = pipelined
    ? [{ guard: 'senderWaits' as const, actions: 'holdEvent' as const }, { actions: 'admitEnvelopes' as const }]
    : { actions: 'admitEnvelopes' as const };

  return setup({
    types: {
      context: {} as SupervisorContext,
      input: {} as SupervisorInput,
      events: {} as SupervisorEvent,
      emitted: {} as SupervisorEmitted,
    },
    actors: {
      journalWriter: createJournalWriter(options.journal),
      ...(system.agents as Record<string, AnyActorLogic>),
    },
    guards: {
      senderWaits: ({ context, event }) => context.ledger.waits(senderOf(event, addressing)),
      reportsRevokedWork: ({ context, event }) =>
        event.type === 'agent.report' &&
        event.outcome.status === 'completed' &&
        context.ledger.isRevoked(event.requestId),
    },
    delays: {
      dedupWindow: options.dedupWindowMs ?? HOUR_MS,
    },
    actions: {
      // Named and parameterized, the two effects of every routed envelope: enqueuing them builds a
      // `{ type, params }` object, not a new `sendTo`/`emit` action function per envelope.
      deliverRecord: sendTo(
        (_, params: DeliverParams) => params.target,
        (_, params: DeliverParams) => deliveryOf(params.pending.record, params.pending.id),
      ),
      emitRouted: emit((_, event: RoutedEvent) => event),
      spawnAgents: enqueueActions(({ context, enqueue }) => {
        // The agents' names are only known at run time, so the typed overloads cannot list them.
        const spawnByName = enqueue.spawnChild as (src: string, options: { id: string; input: unknown }) => void;
        for (const name of agentNames) {
          spawnByName(name, { id: name, input: context.agentInputs[name] ?? system.agentInput?.(name) ?? { name } });
        }
      }),
      admitEnvelopes: enqueueActions(({ context, event, enqueue, self }) => {
        const { ledger, acks } = context;
        const admissions: Admission[] = [];
        switch (event.type) {
          case 'supervisor.send':
            admissions.push(
              ledger.admit({
                kind: 'direct',
                envelope: event.envelope,
                context: event.context,
                redeliver: event.redeliver === true,
              }),
            );
            break;
          case 'supervisor.publish':
            admissions.push(
              ledger.admit({ kind: 'broadcast', envelope: event.envelope, topic: event.topic, context: event.context }),
            );
            break;
          case 'supervisor.request':
            admissions.push(ledger.admit({ kind: 'request', envelope: event.envelope, context: event.context }));
            break;
          case 'supervisor.respond':
            admissions.push(
              ledger.admit({
                kind: 'response',
                envelope: event.envelope,
                inReplyTo: event.inReplyTo,
                context: event.context,
              }),
            );
            break;
          case 'agent.report':
            if (event.outcome.status !== 'completed' || system.routeAgentOutputs === false) break;
            for (const envelope of envelopesOf(event.outcome.output, addressing)) {
              // A worker answering a request answers it with its output.
              const open = ledger.requests.get(event.requestId);
              if (open && open.requester === addressing.receiversOf(envelope))
                admissions.push(ledger.admit({ kind: 'response', envelope, inReplyTo: event.requestId }));
              else admissions.push(ledger.admit({ kind: 'direct', envelope }));
            }
            break;
        }
        for (const admission of admissions) {
          if (!admission.admitted) {
            const rejected: SupervisorRejectedEvent = {
              type: 'supervisor.rejected',
              error: admission.error,
              envelope: admission.envelope,
            };
            if (isRunningChild(self, admission.sender)) enqueue.sendTo(admission.sender, rejected);
            enqueue.emit(rejected);
            continue;
          }
          const { pending, outbox } = admission;
          if (pending.deliveredEarly) deliver(enqueue, self, context, pending);
          // One event per outbox: the writer takes it, with whatever is added until then, in a microtask.
          if (outbox) enqueue.sendTo('journal', { type: 'journal.append', outbox });
          // Beside the envelope, in its write: who must ack it by when (a restart re-arms from it).
          const policy = acks && !pending.journaled && ackPolicyOf?.(pending.record.envelope);
          if (policy) {
            for (const target of pending.targets)
              ledger.note(pending.partition, acks.admitted(pending.id, target, policy, now()));
          }
          if (pending.journaled) continue;
          if (pending.record.kind === 'request' && !pending.record.expired) {
            const correlationId = pending.id;
            const timeoutMs =
              event.type === 'supervisor.request' ? (event.timeoutMs ?? requestTimeoutMs) : requestTimeoutMs;
            enqueue.sendTo(
              ({ self }) => self,
              { type: 'supervisor.request.expired', correlationId },
              { delay: timeoutMs, id: `request:${correlationId}` },
            );
          }
          if (pending.record.kind === 'response' && pending.record.correlation_id !== undefined) {
            enqueue.cancel(`request:${pending.record.correlation_id}`);
          }
        }
      }),
      deliverJournaled: enqueueActions(({ context, event, enqueue, self }) => {
        if (event.type !== 'journal.acked') return;
        const { ledger, acks } = context;
        const { due, released } = ledger.settle(event.tickets, event.failed);
        for (const pending of due) {
          const { record, partition, settled } = pending;
          if (!settled?.ok) {
            const rejected = journalRefusal(
              `The journal could not store the envelope: ${settled?.message}. Send it again.`,
              record.envelope,
            );
            if (isRunningChild(self, pending.sender)) enqueue.sendTo(pending.sender, rejected);
            enqueue.emit(rejected);
            // Revoked: the agents that got it early stop working on it.
            if (pending.deliveredEarly) {
              for (const target of pending.targets)
                enqueue.sendTo(target, { type: 'agent.cancel', requestId: pending.id });
              if (acks) {
                acks.revoked(pending.id);
                rescheduleAckTimer({ enqueue, self, acks, ledger, system, now: now() });
              }
            }
            continue;
          }
          if (record.expired) {
            enqueue.emit({ type: 'supervisor.expired', partition, record, at: 'admission' });
            continue;
          }
          // Its delivery waited for the disk: past its expiry now, it is not delivered either.
          if (!pending.deliveredEarly && pending.expiresAt !== undefined && ledger.expiredNow(pending)) {
            enqueue.emit({ type: 'supervisor.expired', partition, record, at: 'delivery' });
            continue;
          }
          if (!pending.deliveredEarly) deliver(enqueue, self, context, pending);
          hot(enqueue)({
            type: 'emitRouted',
            params: { type: pending.targets.length ? 'supervisor.routed' : 'supervisor.outbound', partition, record },
          });
        }
        for (const { agent, events, revoked } of released) {
          if (revoked.length === 0) {
            // Their inputs are durable now: handle them as if they had just arrived, in order.
            for (const held of events) enqueue.raise(held);
            continue;
          }
          for (const held of events) {
            const rejected = journalRefusal(
              `Not routed: ${agent} produced it while working on ${revoked.join(', ')}, which the journal could not store.`,
              'envelope' in held ? held.envelope : { message_id: (held as AgentReport).requestId },
            );
            if (isRunningChild(self, agent)) enqueue.sendTo(agent, rejected);
            enqueue.emit(rejected);
          }
        }
      }),
      holdEvent: ({ context, event }) => context.ledger.hold(senderOf(event, addressing)!, event),
      /** A report of work whose delivery was revoked, from an agent that did not stop: never routed. */
      refuseRevokedReport: enqueueActions(({ event, enqueue }) => {
        if (event.type !== 'agent.report') return;
        const rejected = journalRefusal(
          `Not routed: request ${event.requestId} was revoked because the journal could not store it.`,
          { message_id: event.requestId },
        );
        enqueue.sendTo(event.agent, rejected);
        enqueue.emit(rejected);
      }),
      expireRequest: enqueueActions(({ context, event, enqueue, self }) => {
        if (event.type !== 'supervisor.request.expired') return;
        const open = context.ledger.expire(event.correlationId);
        if (!open) return;
        const rejected: SupervisorRejectedEvent = {
          type: 'supervisor.rejected',
          error: {
            code: 'request_timeout',
            message: `${open.to} did not answer request ${event.correlationId} in time.`,
          },
          envelope: { message_id: event.correlationId },
        };
        if (isRunningChild(self, open.requester)) enqueue.sendTo(open.requester, rejected);
        enqueue.emit(rejected);
      }),
      /**
       * Tells the orchestrator and observers of a report, once per request: a `throttled` report
       * of an envelope the ack ledger takes over is not one (it is redelivered and reported later).
       */
      forwardReport: enqueueActions(({ context: { acks, ledger }, event, enqueue, self }) => {
        if (event.type !== 'agent.report') return;
        if (event.outcome.status === 'throttled') {
          const step = { enqueue, self, acks, ledger, system, now: now() };
          if (handleThrottle(step, event, event.outcome.retryAfterMs)) return;
        }
        if (system.orchestrator && system.orchestrator !== event.agent) {
          enqueue.sendTo(system.orchestrator, { type: 'supervisor.report', report: event });
        }
        enqueue.emit({ type: 'supervisor.report', report: event });
      }),
      cancelAgentWork: enqueueActions(({ context, event, enqueue }) => {
        if (event.type !== 'supervisor.cancel' || !context.ledger.isAgent(event.agent)) return;
        enqueue.sendTo(
          event.agent,
          event.requestId ? { type: 'agent.cancel', requestId: event.requestId } : { type: 'agent.cancel' },
        );
      }),
      recordAck: enqueueActions(({ context: { acks, ledger }, event, enqueue, self }) => {
        if (event.type !== 'agent.ack' || !acks) return;
        applyAckEffects({ enqueue, self, acks, ledger, system, now: now() }, acks.acked(event.requestId, event.agent));
      }),
      fireAckTimer: enqueueActions(({ context: { acks, ledger }, enqueue, self }) => {
        if (!acks) return;
        acks.timerAt = undefined;
        const step = { enqueue, self, acks, ledger, system, now: now() };
        applyAckEffects(step, acks.due(step.now));
      }),
      armRestoredAcks: enqueueActions(({ context: { acks, ledger }, enqueue, self }) => {
        if (acks) rescheduleAckTimer({ enqueue, self, acks, ledger, system, now: now() });
      }),
      rotateDedupWindow: ({ context }) => {
        context.ledger.seen.rotate();
        context.ledger.revoked.rotate();
      },
    },
  }).createMachine({
    id: 'supervisor',
    context: ({ input }) => {
      const acks = ackPolicyOf ? new AckDelivery(system.acks) : undefined;
      if (acks && input.journal) restoreAcks(acks, input.journal, system, addressing);
      const ledger = new SupervisorLedger<SupervisorEvent>(
        system,
        input.journaledIds,
        options.now ? { now: options.now } : {},
      );
      return { ledger, agentInputs: input.agentInputs ?? {}, acks };
    },
    entry: ['spawnAgents', 'armRestoredAcks'],
    invoke: { src: 'journalWriter', id: 'journal' },
    initial: 'routing',
    states: {
      routing: {
        description:
          'Admits, journals and delivers envelopes; message ids are forgotten one window after they were seen.',
        after: { dedupWindow: { target: 'routing', reenter: true, actions: 'rotateDedupWindow' } },
      },
    },
    on: {
      'supervisor.send': admitOrHold,
      'supervisor.publish': admitOrHold,
      'supervisor.request': admitOrHold,
      'supervisor.respond': admitOrHold,
      'agent.report': pipelined
        ? [
            { guard: 'senderWaits', actions: 'holdEvent' },
            { guard: 'reportsRevokedWork', actions: 'refuseRevokedReport' },
            { actions: ['admitEnvelopes', 'forwardReport'] },
          ]
        : { actions: ['admitEnvelopes', 'forwardReport'] },
      'agent.ack': { actions: 'recordAck' },
      'supervisor.ack.due': { actions: 'fireAckTimer' },
      'journal.acked': { actions: 'deliverJournaled' },
      'supervisor.request.expired': { actions: 'expireRequest' },
      'supervisor.cancel': { actions: 'cancelAgentWork' },
    },
  });
}

export type SupervisorMachine = ReturnType<typeof createSupervisorMachine>;
