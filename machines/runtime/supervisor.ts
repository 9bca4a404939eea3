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
import { addressingOf } from '../../protocol/runtime/envelope-addressing.ts';
import { AckDelivery } from './ack-delivery.ts';
import { DeliverySenders } from './delivery-senders.ts';
import { applyAckEffects, handleThrottle, rescheduleAckTimer, restoreAcks } from './supervisor-acks.ts';
import { admitEnvelopes } from './supervisor-admission.ts';
import {
  deliveryOf,
  journalRefusal,
  senderOf,
  type SupervisorEmitted,
  type SupervisorEvent,
} from './supervisor-events.ts';
import { SupervisorLedger } from './supervisor-ledger.ts';
import { expireRequest } from './supervisor-requests.ts';
import { supervisorDeliverer, type DeliverBatchEvent } from './supervisor-deliverer.ts';
import { deliverJournaled } from './supervisor-settlement.ts';
import {
  ackStepOf,
  type DeliverParams,
  type RoutedEvent,
  type SupervisorConfig,
  type SupervisorContext,
  type SupervisorEnqueue,
  type SupervisorStep,
} from './supervisor-step.ts';
import type { SystemDefinition } from './supervisor-system.ts';

export { routedRecordsOf } from './supervisor-events.ts';
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

const HOUR_MS = 3_600_000;

/** An action's arguments, as the supervisor's steps take them. */
interface ActionArgs {
  context: SupervisorContext;
  enqueue: unknown;
  self: AnyActorRef;
}

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
  const config: SupervisorConfig = {
    system,
    addressing,
    // Acknowledged delivery runs only where the addressing says where an envelope asks for acks.
    ackPolicyOf: system.addressing?.ack ? addressing.ackPolicyOf : undefined,
    requestTimeoutMs: system.requestTimeoutMs ?? 30_000,
    now: options.now ?? Date.now,
  };
  // Only pipelined delivery holds what an agent produces; a durable system has no such transitions.
  const pipelined = system.delivery === 'pipelined';
  const stepOf = ({ context, enqueue, self }: ActionArgs): SupervisorStep => ({
    enqueue: enqueue as SupervisorEnqueue,
    self,
    context,
    config,
  });
  const admitOrHold = pipelined
    ? [{ guard: 'senderWaits' as const, actions: 'holdEvent' as const }, { actions: 'admitEnvelopes' as const }]
    : { actions: 'admitEnvelopes' as const };

  return setup({
    // Stryker disable next-line ObjectLiteral: `types` only carries TypeScript types; XState never reads its value
    types: {
      context: {} as SupervisorContext,
      input: {} as SupervisorInput,
      events: {} as SupervisorEvent,
      emitted: {} as SupervisorEmitted,
    },
    actors: {
      journalWriter: createJournalWriter(options.journal),
      deliverer: supervisorDeliverer,
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
      deliverBatch: sendTo('deliverer', (_, batch: DeliverBatchEvent) => batch),
      emitRouted: emit((_, event: RoutedEvent) => event),
      spawnAgents: enqueueActions(({ context, enqueue }) => {
        // The agents' names are only known at run time, so the typed overloads cannot list them.
        const spawnByName = enqueue.spawnChild as (src: string, options: { id: string; input: unknown }) => void;
        for (const name of agentNames) {
          spawnByName(name, { id: name, input: context.agentInputs[name] ?? system.agentInput?.(name) ?? { name } });
        }
      }),
      admitEnvelopes: enqueueActions((args) => admitEnvelopes(stepOf(args), args.event)),
      deliverJournaled: enqueueActions((args) => {
        if (args.event.type === 'journal.acked') deliverJournaled(stepOf(args), args.event);
      }),
      holdEvent: ({ context, event }) => context.ledger.hold(senderOf(event, addressing)!, event),
      /** A report of work whose delivery was revoked, from an agent that did not stop: never routed. */
      refuseRevokedReport: enqueueActions(({ event, enqueue }) => {
        if (event.type !== 'agent.report') return;
        const rejected = journalRefusal(
          `Not routed: request ${event.requestId} was revoked because the journal could not store it.`,
          { requestId: event.requestId },
        );
        enqueue.sendTo(event.agent, rejected);
        enqueue.emit(rejected);
      }),
      expireRequest: enqueueActions((args) => {
        if (args.event.type === 'supervisor.request.expired') expireRequest(stepOf(args), args.event.correlationId);
      }),
      /**
       * Tells the orchestrator and observers of a report, once per request: a `throttled` report
       * of an envelope the ack ledger takes over is not one (it is redelivered and reported later).
       */
      forwardReport: enqueueActions((args) => {
        const { event, context } = args;
        if (event.type !== 'agent.report') return;
        const step = stepOf(args);
        const sender = context.senders.reported(event.requestId);
        if (event.outcome.status === 'throttled') {
          const { ledger, acks } = context;
          const throttle = { enqueue: step.enqueue, self: step.self, acks, ledger, system, now: config.now() };
          if (handleThrottle(throttle, event, event.outcome.retryAfterMs, sender)) return;
        }
        if (system.orchestrator && system.orchestrator !== event.agent) {
          step.enqueue.sendTo(system.orchestrator, { type: 'supervisor.report', report: event });
        }
        step.enqueue.emit({ type: 'supervisor.report', report: event });
      }),
      cancelAgentWork: enqueueActions(({ context, event, enqueue }) => {
        if (event.type !== 'supervisor.cancel' || !context.ledger.isAgent(event.agent)) return;
        enqueue.sendTo(
          event.agent,
          event.requestId ? { type: 'agent.cancel', requestId: event.requestId } : { type: 'agent.cancel' },
        );
      }),
      recordAck: enqueueActions((args) => {
        const { acks } = args.context;
        if (args.event.type !== 'agent.ack' || !acks) return;
        applyAckEffects(ackStepOf(stepOf(args), acks), acks.acked(args.event.requestId, args.event.agent));
      }),
      fireAckTimer: enqueueActions((args) => {
        const { acks } = args.context;
        if (!acks) return;
        acks.timerAt = undefined;
        const step = ackStepOf(stepOf(args), acks);
        applyAckEffects(step, acks.due(step.now));
      }),
      armRestoredAcks: enqueueActions((args) => {
        const { acks } = args.context;
        if (acks) rescheduleAckTimer(ackStepOf(stepOf(args), acks));
      }),
      rotateDedupWindow: ({ context }) => {
        context.ledger.seen.rotate();
        context.ledger.revoked.rotate();
      },
    },
  }).createMachine({
    id: 'supervisor',
    context: ({ input }) => {
      const acks = config.ackPolicyOf ? new AckDelivery(system.acks) : undefined;
      if (acks && input.journal) restoreAcks(acks, input.journal, system, addressing);
      const ledger = new SupervisorLedger<SupervisorEvent>(
        system,
        input.journaledIds,
        options.now ? { now: options.now } : {},
      );
      return { ledger, agentInputs: input.agentInputs ?? {}, acks, senders: new DeliverySenders() };
    },
    entry: ['spawnAgents', 'armRestoredAcks'],
    invoke: [
      { src: 'journalWriter', id: 'journal' },
      { src: 'deliverer', id: 'deliverer' },
    ],
    initial: 'routing',
    states: {
      routing: {
        description:
          // Stryker disable next-line StringLiteral: a description is only shown (the visualizer draws it); no transition reads it
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
