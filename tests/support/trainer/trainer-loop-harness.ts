import { createActor, fromPromise, SimulatedClock, type AnyActorRef } from 'xstate';
import { createMemoryJournal } from '../../../actors/runtime/memory-journal.ts';
import type { CallModelInput, CallModelOutput } from '../../../actors/trainer/loop/loop-call-model.ts';
import type { FinishTurnInput } from '../../../actors/trainer/loop/loop-finish-turn.ts';
import type { LogErrorInput } from '../../../actors/trainer/loop/loop-log-error.ts';
import type { RecordTurnInput } from '../../../actors/trainer/loop/loop-record-turn.ts';
import {
  statusMessageOf,
  type RunToolInput,
  type ToolOutcome,
  type ToolTimeoutInput,
} from '../../../actors/trainer/loop/loop-run-tool.ts';
import {
  createInitializerBrain,
  type ContextInitializer,
} from '../../../actors/trainer/initializer/trainer-initializer-brain.ts';
import type { AgentLoopInput, AgentLoopOutput } from '../../../machines/trainer/agent-loop-context.ts';
import type { AgentLoopStreamEvent } from '../../../machines/trainer/agent-loop-stream.ts';
import { createSupervisorMachine } from '../../../machines/runtime/supervisor.ts';
import { trainerSystem } from '../../../machines/trainer/trainer-system.ts';
import type { RoutedRecord } from '../../../protocol/runtime/routing.ts';
import type { SseEvent } from '../../../protocol/trainer/sse-event.ts';
import type { AgentSession } from '../../../protocol/trainer/session.ts';
import type { ContextLoaded, TrainerEnvelopeOf } from '../../../protocol/trainer/trainer-envelope.ts';

/** What the fake model answers on one call. */
export type ModelStep =
  { tool: string; args?: Record<string, unknown> } | { noTool: true } | { error: string } | { hang: true };

/** How the fake initializer behaves. */
export type InitializerStep = { loaded: ContextLoaded } | { error: string } | { hang: true };

export interface LoopHarnessOptions {
  script: readonly ModelStep[];
  initializer?: InitializerStep;
  /** Tools whose execution never finishes. */
  hangingTools?: readonly string[];
  /** Tools the fake records as failed (a bad argument, say). */
  failingTools?: readonly string[];
  loop?: Omit<AgentLoopInput, 'name'>;
  finishFails?: boolean;
}

const TERMINAL = new Set(['idle', 'message_ask_user']);
const never = () => new Promise<never>(() => {});

const session = (input: FinishTurnInput): AgentSession => ({
  id: input.sessionId,
  user_id: 'user-1',
  created_at: '2025-03-01T10:00:00.000Z',
  updated_at: '2025-03-01T10:00:00.000Z',
  context_start_sequence: 0,
  total_tokens: 0,
  cached_tokens: 0,
  total_cost_cents: 0,
  status: input.status,
  metadata: {},
});

/** A fake tool outcome: success (terminal for idle and message_ask_user) unless told to fail. */
export function fakeOutcome(call: RunToolInput['call'], failed: boolean): ToolOutcome {
  const statusMessage = statusMessageOf(call.name);
  return {
    tool: call.name,
    args: call.arguments,
    result: failed
      ? { success: false, error: `${call.name} refused its arguments` }
      : { success: true, echo: call.arguments },
    formatted: `<tool_result name="${call.name}">ok</tool_result>`,
    status: failed ? 'failed' : 'done',
    terminal: !failed && TERMINAL.has(call.name),
    ...(statusMessage ? { statusMessage } : {}),
  };
}

/**
 * The trainer system with fake loop actors and a scripted initializer under a real supervisor,
 * on a simulated clock: what every actor was invoked with, every stream event in order, and the
 * turn's result.
 */
export function startLoopHarness(options: LoopHarnessOptions) {
  const clock = new SimulatedClock();
  const journal = createMemoryJournal<RoutedRecord>();
  const calls = {
    recorded: [] as RecordTurnInput[],
    model: [] as CallModelInput[],
    tools: [] as RunToolInput[],
    timeouts: [] as ToolTimeoutInput[],
    errors: [] as LogErrorInput[],
    finished: [] as FinishTurnInput[],
    initializer: 0,
    aborted: [] as string[],
  };
  const stream: SseEvent[] = [];
  const initializer: ContextInitializer = {
    async initialize({ signal }) {
      calls.initializer += 1;
      signal?.addEventListener('abort', () => calls.aborted.push('initializer'));
      const step = options.initializer ?? { loaded: { sources: [], reasoning: 'nothing needed' } };
      if ('hang' in step) return never();
      if ('error' in step) throw new Error(step.error);
      return step.loaded;
    },
  };
  const system = trainerSystem({
    loopActors: {
      recordTurn: fromPromise<void, RecordTurnInput>(async ({ input }) => void calls.recorded.push(input)),
      callModel: fromPromise<CallModelOutput, CallModelInput>(async ({ input, signal }) => {
        calls.model.push(input);
        signal.addEventListener('abort', () => calls.aborted.push(`model:${input.iteration}`));
        const step = options.script[input.iteration - 1] ?? { tool: 'idle', args: { reason: 'script over' } };
        if ('hang' in step) return never();
        if ('error' in step) throw new Error(step.error);
        if ('noTool' in step) return { toolCall: undefined, costCents: 0, cachedTokens: 0, promptTokens: 10 };
        const toolCall = { id: `call-${input.iteration}`, name: step.tool, arguments: step.args ?? {} };
        return { toolCall, costCents: 0.1, cachedTokens: 0, promptTokens: 10 };
      }),
      runTool: fromPromise<ToolOutcome, RunToolInput>(async ({ input }) => {
        calls.tools.push(input);
        if (options.hangingTools?.includes(input.call.name)) return never();
        return fakeOutcome(input.call, options.failingTools?.includes(input.call.name) ?? false);
      }),
      recordToolTimeout: fromPromise<ToolOutcome, ToolTimeoutInput>(async ({ input }) => {
        calls.timeouts.push(input);
        return fakeOutcome(input.call, true);
      }),
      logError: fromPromise<void, LogErrorInput>(async ({ input }) => void calls.errors.push(input)),
      finishTurn: fromPromise<AgentSession, FinishTurnInput>(async ({ input }) => {
        calls.finished.push(input);
        if (options.finishFails) throw new Error('store unavailable');
        return session(input);
      }),
    },
    initializerBrain: createInitializerBrain(initializer),
    ...(options.loop ? { loop: options.loop } : {}),
    now: () => clock.now(),
  });
  const supervisor = createActor(createSupervisorMachine(system, { journal }), { clock, input: {} });
  const outbound: RoutedRecord[] = [];
  supervisor.on('supervisor.outbound', ({ record }) => outbound.push(record));
  supervisor.start();
  const trainer = (supervisor.getSnapshot().children as Record<string, AnyActorRef>)['TRAINER']!;
  trainer.on('agentLoop.event', (event: AgentLoopStreamEvent) => stream.push(event.event));

  return {
    clock,
    journal,
    calls,
    stream,
    supervisor,
    trainer,
    outbound,
    /** Sends the user's message as the supervisor would receive it from the host. */
    send(message = 'Give me a quick chest workout', extra: Partial<TrainerEnvelopeOf<'chat_request'>['payload']> = {}) {
      const envelope: TrainerEnvelopeOf<'chat_request'> = {
        message_id: 'turn-1',
        from_agent: 'USER',
        to_agent: 'TRAINER',
        data_type: 'chat_request',
        session_id: 'session-1',
        payload: { user_id: 'user-1', message, model: 'claude-haiku-4-5', ...extra },
      };
      supervisor.send({ type: 'supervisor.send', envelope });
    },
    /** Lets promises and journal writes settle. */
    async settle(rounds = 20) {
      for (let i = 0; i < rounds; i++) await new Promise((resolve) => setImmediate(resolve));
    },
    /** The loop's output once it is done and its result was journaled (settles first). */
    async result(): Promise<AgentLoopOutput | undefined> {
      await this.settle();
      const snapshot = trainer.getSnapshot();
      return snapshot.status === 'done' ? (snapshot.output as AgentLoopOutput) : undefined;
    },
    state: () => String(trainer.getSnapshot().value),
    stop: () => supervisor.stop(),
  };
}

export type LoopHarness = ReturnType<typeof startLoopHarness>;
