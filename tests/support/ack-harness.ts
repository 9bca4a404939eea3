import { createActor, fromPromise, SimulatedClock, type AnyActorRef } from 'xstate';
import type { Journal } from '../../actors/runtime/journal.ts';
import { createMemoryJournal } from '../../actors/runtime/memory-journal.ts';
import { agentMachine } from '../../machines/runtime/agent.ts';
import { DEFAULT_ADDRESSING } from '../../protocol/runtime/envelope-addressing.ts';
import type { AckOptions } from '../../machines/runtime/ack-delivery.ts';
import { createSupervisorMachine, type SupervisorEmitted } from '../../machines/runtime/supervisor.ts';
import { isAckRecord, isRoutedRecord, type JournalRecord } from '../../protocol/runtime/ack-record.ts';
import type { AgentBrainInput } from '../../protocol/runtime/agent-report.ts';
import { recorderAgent } from './recorder-agent.ts';
import { retryingSender } from './retrying-sender.ts';
import { envelope, testSystem, type TestEnvelope } from './test-system.ts';

/** The ack policy of the test system: questions and news need an ack within 1 s, 2 retries. */
export const ACK_POLICY = { timeoutMs: 1_000, retries: 2 };

/** One brain run of B or C, settled by the test. */
export interface WorkerCall {
  agent: string;
  requestId: string;
  attempt: number;
  settled: boolean;
  resolve(output: unknown): void;
}

/**
 * Stops a child actor as its parent's `stopChild` would (its public `stop()` refuses a child): the
 * way tests silence an agent, never a flag in production code.
 */
export function stopAgent(ref: AnyActorRef): void {
  (ref as unknown as { _stop(): void })._stop();
}

/** The dead letter of the test system: A tells USER which receiver never acked. */
export const deadLetterOf = (original: unknown, receiver: string, attempts: number, id: string): TestEnvelope =>
  envelope({
    message_id: id,
    from_agent: 'A',
    to_agent: 'USER',
    payload: { text: `${(original as TestEnvelope).message_id} undeliverable to ${receiver}`, n: attempts },
  });

/** How a test shapes the ack test system. */
interface AckSystemOptions {
  agentInput?: { maxQueued?: number; retryAfterMs?: number };
  acks?: AckOptions;
  /** False: the addressing declares no acks (nothing is tracked). */
  tracked?: boolean;
}

/**
 * The test system with acknowledged delivery: A is a recorder (it sends, and hears refusals), B and
 * C are real agent workers whose brains wait for the test (`calls`), USER is external. Questions
 * and news need acks; backoff jitter is seeded (random 0: 100 ms, then 200 ms).
 */
export function ackTestSystem(options: AckSystemOptions = {}) {
  const calls: WorkerCall[] = [];
  const brain = fromPromise<unknown, AgentBrainInput>(
    ({ input }) =>
      new Promise((resolve) => {
        const call: WorkerCall = {
          agent: input.agent,
          requestId: input.requestId,
          attempt: input.attempt,
          settled: false,
          resolve: (output) => {
            call.settled = true;
            resolve(output);
          },
        };
        calls.push(call);
      }),
  );
  const worker = agentMachine.provide({ actors: { brain } });
  const base = testSystem({ A: recorderAgent, B: worker, C: worker });
  const system = {
    ...base,
    routes: [...base.routes, { from: 'A', to: 'USER', data_type: 'note' }],
    agentInput: (name: string) => ({ name, ...options.agentInput }),
    ...(options.tracked === false
      ? {}
      : {
          addressing: {
            ...DEFAULT_ADDRESSING,
            expiry: 'expires_at',
            ack: { requiredForKinds: ['question', 'news'], defaults: ACK_POLICY },
          },
        }),
    acks: {
      backoff: { baseMs: 100, maxMs: 1_000 },
      random: () => 0,
      deadLetter: deadLetterOf,
      ...options.acks,
    },
  };
  return { system, calls };
}

/** The ack test system's supervisor on a simulated clock, with what it emitted and journaled. */
export function startAckHarness(
  options: AckSystemOptions & {
    journal?: Journal<JournalRecord>;
    journaled?: readonly JournalRecord[];
    /** A is a `retryingSender` (tests/support/retrying-sender.ts) instead of a recorder. */
    retryingSender?: boolean;
  } = {},
) {
  const { system, calls } = ackTestSystem(options);
  const journal = options.journal ?? createMemoryJournal<JournalRecord>();
  const clock = new SimulatedClock();
  if (options.retryingSender) {
    // A sends as a system's agent would, backing off on the supervisor's clock.
    const { agentInput } = system;
    const senderInput = { now: () => clock.now(), policy: { baseMs: 100, maxMs: 1_000 }, maxRetries: 3 };
    Object.assign(system, {
      agents: { ...system.agents, A: retryingSender },
      agentInput: (name: string) => (name === 'A' ? senderInput : agentInput(name)),
    });
  }
  const actor = createActor(createSupervisorMachine(system, { journal, now: () => clock.now() }), {
    input: options.journaled
      ? {
          journal: options.journaled,
          journaledIds: options.journaled.flatMap((r) => (isRoutedRecord(r) ? [String(r.envelope['message_id'])] : [])),
        }
      : {},
    clock,
  });
  const emitted: SupervisorEmitted[] = [];
  actor.on('*', (event) => emitted.push(event as SupervisorEmitted));
  actor.start();
  const child = (name: string) => (actor.getSnapshot().children as Record<string, AnyActorRef>)[name]!;
  return {
    actor,
    clock,
    journal,
    calls,
    emitted,
    child,
    /** A sends an event to the supervisor, as an agent would. */
    sendAsA: (event: unknown) => child('A').send({ type: 'recorder.send', event }),
    /** How many `supervisor.<type>` events were emitted. */
    count: (type: string) => emitted.filter((e) => e.type === `supervisor.${type}`).length,
    /** What A heard back. */
    rejectedOfA: () =>
      child('A').getSnapshot().context.rejected as {
        error: { code: string; message: string; retryAfterMs?: number };
        requestId?: string;
        envelope?: unknown;
      }[],
    /** The ack records of a partition, in journal order. */
    ackTrail: async (partition = 'run-1') => (await journal.read(partition)).map((e) => e.data).filter(isAckRecord),
    /** Settles the pending microtasks and journal writes. */
    flush: () => new Promise<void>((resolve) => setImmediate(resolve)),
  };
}
