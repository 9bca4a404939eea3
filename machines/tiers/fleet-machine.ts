/**
 * Spec 002's SPECIALIZED_FLEET as one agent of the supervisor: it hosts one worker actor per
 * specialist (addressed by the delegation's `specialist_hint`) and a `desk` that answers what no
 * specialist takes (a cancellation, an unknown specialist). It accepts `agent.request` and
 * `agent.cancel`, forwards each to the child it concerns, and reports their `agent.report` and
 * `agent.ack` to the supervisor as the fleet's own.
 */
import { assign, enqueueActions, sendParent, setup, type AnyActorLogic, type AnyActorRef } from 'xstate';
import type {
  AgentAckEvent,
  AgentCancelEvent,
  AgentReport,
  AgentRequestEvent,
} from '../../protocol/runtime/agent-report.ts';
import type { DeliveredMessage } from '../../protocol/runtime/routing.ts';

/** The fleet's child that answers cancellations and delegations to no known specialist. */
export const FLEET_DESK = 'desk';

type FleetEvent = AgentRequestEvent | AgentCancelEvent | AgentReport | AgentAckEvent;

interface FleetContext {
  /** Which child holds each request, so a cancellation reaches it. */
  holders: Record<string, string>;
}

/** The child a request goes to: its hint's specialist, else the desk. */
function childFor(input: unknown, specialists: ReadonlySet<string>): string {
  const payload = (
    (input as DeliveredMessage | undefined)?.envelope as { payload?: Record<string, unknown> } | undefined
  )?.payload;
  const hint = payload?.['specialist_hint'];
  return typeof hint === 'string' && specialists.has(hint) && !('target_message_id' in (payload ?? {}))
    ? hint
    : FLEET_DESK;
}

/** The delegation a cancellation names, if the request is one. */
function cancelledBy(input: unknown): string | undefined {
  const payload = (
    (input as DeliveredMessage | undefined)?.envelope as { payload?: Record<string, unknown> } | undefined
  )?.payload;
  const target = payload?.['target_message_id'];
  return typeof target === 'string' ? target : undefined;
}

/**
 * The fleet agent over `specialists` (name -> worker logic, each an `agentMachine` with its
 * brain) and the `desk` worker.
 *
 * @example
 * const fleet = createFleetMachine({ 'js-solver': solverAgent, reviewer: reviewerAgent }, deskAgent, (name) => ({ name }));
 */
export function createFleetMachine(
  specialists: Readonly<Record<string, AnyActorLogic>>,
  desk: AnyActorLogic,
  childInput: (name: string) => unknown,
) {
  const names = new Set(Object.keys(specialists));
  return setup({
    types: { context: {} as FleetContext, events: {} as FleetEvent, input: {} as { name: string } },
    actors: { ...specialists, [FLEET_DESK]: desk } as Record<string, AnyActorLogic>,
    actions: {
      spawnChildren: enqueueActions(({ enqueue }) => {
        const spawn = enqueue.spawnChild as (src: string, options: { id: string; input: unknown }) => void;
        for (const name of [...names, FLEET_DESK]) spawn(name, { id: name, input: childInput(name) });
      }),
      forwardRequest: enqueueActions(({ context, event, enqueue, self }) => {
        if (event.type !== 'agent.request') return;
        const target = cancelledBy(event.input);
        const holder = target === undefined ? undefined : context.holders[target];
        // A cancellation first stops the work it names (the worker reports it cancelled), then the desk answers it.
        if (target !== undefined && holder !== undefined)
          enqueue.sendTo(childOf(self, holder), { type: 'agent.cancel', requestId: target });
        const child = childFor(event.input, names);
        enqueue.assign({ holders: { ...context.holders, [event.requestId]: child } });
        enqueue.sendTo(childOf(self, child), event);
      }),
      forwardCancel: enqueueActions(({ context, event, enqueue, self }) => {
        if (event.type !== 'agent.cancel') return;
        const holders =
          event.requestId === undefined ? [...names, FLEET_DESK] : [context.holders[event.requestId] ?? FLEET_DESK];
        for (const holder of holders) enqueue.sendTo(childOf(self, holder), event);
      }),
      forgetRequest: assign(({ context, event }) => {
        if (event.type !== 'agent.report') return {};
        const { [event.requestId]: _, ...holders } = context.holders;
        return { holders };
      }),
      reportUp: sendParent(({ event }) => ({ ...(event as AgentReport | AgentAckEvent), agent: 'SPECIALIZED_FLEET' })),
    },
  }).createMachine({
    id: 'fleet',
    context: { holders: {} },
    entry: 'spawnChildren',
    on: {
      'agent.request': { actions: 'forwardRequest' },
      'agent.cancel': { actions: 'forwardCancel' },
      'agent.report': { actions: ['reportUp', 'forgetRequest'] },
      'agent.ack': { actions: 'reportUp' },
    },
  });
}

function childOf(self: AnyActorRef, name: string): AnyActorRef {
  return (self.getSnapshot().children as Record<string, AnyActorRef>)[name]!;
}
