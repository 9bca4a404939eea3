import { assign, createActor, fromPromise, sendTo, setup, SimulatedClock } from 'xstate';
import type { Actor } from 'xstate';
import { agentMachine } from '../../machines/runtime/agent.ts';
import type { AgentBrainLogic, AgentEvent, AgentInput } from '../../machines/runtime/agent.ts';
import type { AgentAckEvent, AgentBrainInput, AgentReport } from '../../protocol/runtime/agent-report.ts';

/** One brain run started by the agent, settled by the test whenever it likes. */
export interface BrainCall {
  /** Position among everything the harness observed (calls and reports), for ordering checks. */
  seq: number;
  input: AgentBrainInput;
  signal: AbortSignal;
  settled: boolean;
  resolve(output: unknown): void;
  reject(error: unknown): void;
}

/** A report plus its position in the harness's observation order. */
export interface ObservedReport {
  seq: number;
  report: AgentReport;
}

/**
 * A tiny parent that invokes the agent (so `sendParent` has somewhere to go), forwards
 * `agent.request`/`agent.cancel` to it and records every `agent.report`.
 */
function parentMachine(agent: typeof agentMachine) {
  return setup({
    types: {
      input: {} as AgentInput,
      context: {} as { agentInput: AgentInput; reports: AgentReport[]; acks: AgentAckEvent[] },
      events: {} as AgentEvent | AgentReport | AgentAckEvent,
    },
    actors: { agent },
    actions: {
      forwardToAgent: sendTo('agent', ({ event }) => event),
      recordReport: assign({
        reports: ({ context, event }) =>
          event.type === 'agent.report' ? [...context.reports, event] : context.reports,
      }),
      recordAck: assign({
        acks: ({ context, event }) => (event.type === 'agent.ack' ? [...context.acks, event] : context.acks),
      }),
    },
  }).createMachine({
    context: ({ input }) => ({ agentInput: input, reports: [], acks: [] }),
    invoke: { id: 'agent', src: 'agent', input: ({ context }) => context.agentInput },
    on: {
      'agent.request': { actions: 'forwardToAgent' },
      'agent.cancel': { actions: 'forwardToAgent' },
      'agent.report': { actions: 'recordReport' },
      'agent.ack': { actions: 'recordAck' },
    },
  });
}

export interface AgentHarness {
  parent: Actor<ReturnType<typeof parentMachine>>;
  clock: SimulatedClock;
  calls: BrainCall[];
  reports: ObservedReport[];
  send(event: AgentEvent): void;
  /** Request ids the agent acked (`agent.ack`), in order. */
  acks(): string[];
  /** The newest unsettled call whose signal is not aborted: the run the agent is waiting on. */
  activeCall(): BrainCall | undefined;
  /** Takes the next position in the observation order, to place a test's own steps in it. */
  mark(): number;
}

/**
 * Starts an agent under a recording parent, on a simulated clock, with a brain whose every run is
 * a deferred promise the test settles; `brain` swaps in another brain, or `'default'` keeps the
 * machine's own.
 */
export function startAgentHarness(input: AgentInput, brain?: AgentBrainLogic | 'default'): AgentHarness {
  let seq = 0;
  const calls: BrainCall[] = [];
  const reports: ObservedReport[] = [];
  const deferredBrain = fromPromise<unknown, AgentBrainInput>(
    ({ input: brainInput, signal }) =>
      new Promise((resolve, reject) => {
        const call: BrainCall = {
          seq: seq++,
          input: brainInput,
          signal,
          settled: false,
          resolve: (output) => {
            call.settled = true;
            resolve(output);
          },
          reject: (error) => {
            call.settled = true;
            reject(error);
          },
        };
        calls.push(call);
      }),
  );
  const agent =
    brain === 'default' ? agentMachine : agentMachine.provide({ actors: { brain: brain ?? deferredBrain } });
  const clock = new SimulatedClock();
  const parent = createActor(parentMachine(agent), { input, clock });
  // Number each new report as it lands, so tests can order reports against brain calls.
  parent.subscribe((snapshot) => {
    for (const report of snapshot.context.reports.slice(reports.length)) {
      reports.push({ seq: seq++, report });
    }
  });
  parent.start();
  return {
    parent,
    clock,
    calls,
    reports,
    send: (event) => parent.send(event),
    acks: () => parent.getSnapshot().context.acks.map((ack) => ack.requestId),
    activeCall: () => calls.findLast((call) => !call.settled && !call.signal.aborted),
    mark: () => seq++,
  };
}

/** Lets settled promises reach the actors: every pending microtask runs before a macrotask. */
export function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
