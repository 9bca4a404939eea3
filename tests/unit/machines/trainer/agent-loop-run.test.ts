import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_CONTEXT_TIMEOUT_MS,
  DEFAULT_MODEL_TIMEOUT_MS,
  DEFAULT_TOOL_TIMEOUT_MS,
} from '../../../../machines/trainer/agent-loop-context.ts';
import { turnPartitionAt } from '../../../../machines/trainer/turn-partition.ts';
import {
  startLoopHarness,
  type LoopHarness,
  type LoopHarnessOptions,
} from '../../../support/trainer/trainer-loop-harness.ts';

let harness: LoopHarness | undefined;
afterEach(() => harness?.stop());

function start(options: LoopHarnessOptions) {
  harness = startLoopHarness(options);
  return harness;
}

const workoutCycle = [
  { tool: 'generate_workout', args: { workout: { title: 'Chest' } } },
  { tool: 'message_notify_user', args: { message: 'Here it is', artifact_id: 'art_1' } },
  { tool: 'idle', args: { reason: 'delivered' } },
];

describe('agentLoopMachine under the trainer supervisor', () => {
  it('runs the §3.1 loop: one model call and one tool per iteration until idle', async () => {
    const h = start({
      script: workoutCycle,
      initializer: { loaded: { sources: [{ source: 'category_goals', displayName: 'Goals' }], reasoning: 'workout' } },
    });
    h.send();
    const result = await h.result();
    expect(result).toMatchObject({ sessionId: 'session-1', status: 'completed', stop_reason: 'idle', iterations: 3 });
    expect(result?.actions.map((a) => a.tool)).toEqual(['generate_workout', 'message_notify_user', 'idle']);
    expect(h.calls.model.map((c) => c.iteration)).toEqual([1, 2, 3]);
    expect(h.calls.tools.map((c) => c.call.name)).toEqual(['generate_workout', 'message_notify_user', 'idle']);
    expect(h.calls.recorded).toEqual([
      { sessionId: 'session-1', userId: 'user-1', message: 'Give me a quick chest workout' },
    ]);
    expect(h.calls.finished).toEqual([{ sessionId: 'session-1', userId: 'user-1', status: 'completed' }]);
    expect(h.calls.initializer).toBe(1);
  });

  it('streams knowledge, then status/tool_start/tool_result/status per tool, then done, in that order (§8.3)', async () => {
    const h = start({
      script: workoutCycle,
      initializer: {
        loaded: { sources: [{ source: 'workout_history', displayName: 'Workout History' }], reasoning: 'history' },
      },
    });
    h.send();
    await h.result();
    const shape = h.stream.map((e) =>
      e.type === 'status'
        ? `status:${(e.data as { phase: string }).phase}`
        : 'status' in e && e.status
          ? `${e.type}:${e.status}`
          : 'data' in e && (e.data as { status?: string }).status === 'running'
            ? `${e.type}:running`
            : e.type,
    );
    expect(shape).toEqual([
      'knowledge',
      'status:start',
      'generate_workout:running',
      'generate_workout:done',
      'status:done',
      'message_notify_user:running',
      'message_notify_user:done',
      'status:start',
      'idle:running',
      'idle:done',
      'status:done',
      'done',
    ]);
    expect(h.stream.at(-1)).toEqual({ type: 'done', sessionId: 'session-1' });
  });

  it('routes and journals the turn: chat_request, context_request, context_loaded, turn_result', async () => {
    const h = start({ script: workoutCycle });
    h.send();
    await h.result();
    // The partition of the hour on the turn's clock, shared by every session: this one's envelopes are all there.
    expect(await h.journal.partitions()).toEqual([turnPartitionAt(h.clock.now())]);
    const entries = await h.journal.read(turnPartitionAt(h.clock.now()));
    expect(entries.every((e) => e.data.envelope['session_id'] === 'session-1')).toBe(true);
    expect(
      entries.map((e) => `${e.data.envelope.from_agent}>${e.data.envelope.to_agent}:${e.data.envelope.data_type}`),
    ).toEqual([
      'USER>TRAINER:chat_request',
      'TRAINER>INITIALIZER:context_request',
      'INITIALIZER>TRAINER:context_loaded',
      'TRAINER>USER:turn_result',
    ]);
    expect(h.outbound.map((r) => r.envelope.data_type)).toEqual(['turn_result']);
    expect(h.outbound[0]?.envelope.payload).toMatchObject({ status: 'completed', stop_reason: 'idle', iterations: 3 });
  });

  it('stops after message_ask_user, awaiting the user', async () => {
    const h = start({ script: [{ tool: 'message_ask_user', args: { question: 'Gym or home?' } }] });
    h.send();
    expect(await h.result()).toMatchObject({ status: 'completed', stop_reason: 'awaiting_user', iterations: 1 });
  });

  it('stops at 10 iterations, logging the limit as an error (§3.2)', async () => {
    const h = start({
      script: Array.from({ length: 15 }, () => ({ tool: 'fetch_data', args: { sources: ['user_profile'] } })),
    });
    h.send();
    const result = await h.result();
    expect(result).toMatchObject({ status: 'completed', stop_reason: 'max_iterations', iterations: 10 });
    expect(h.calls.model).toHaveLength(10);
    expect(h.calls.tools).toHaveLength(10);
    expect(h.calls.finished[0]?.error?.context).toBe('max_iterations');
  });

  it('honours a smaller iteration limit from its input', async () => {
    const h = start({ script: Array.from({ length: 5 }, () => ({ tool: 'fetch_data' })), loop: { maxIterations: 3 } });
    h.send();
    expect(await h.result()).toMatchObject({ stop_reason: 'max_iterations', iterations: 3 });
  });

  it('stops when the response has no tool call, without executing anything', async () => {
    const h = start({ script: [{ noTool: true }] });
    h.send();
    expect(await h.result()).toMatchObject({
      status: 'completed',
      stop_reason: 'no_tool_call',
      iterations: 1,
      actions: [],
    });
    expect(h.calls.tools).toHaveLength(0);
    expect(h.calls.finished[0]?.error?.message).toBe('No tool call in response');
  });

  it('ends the session in error when the model call fails, streaming an error and no done', async () => {
    const h = start({ script: [{ tool: 'fetch_data' }, { error: 'Anthropic API error 529: overloaded' }] });
    h.send();
    expect(await h.result()).toMatchObject({
      status: 'error',
      stop_reason: 'model_error',
      iterations: 2,
      error: 'Anthropic API error 529: overloaded',
    });
    expect(h.calls.finished).toEqual([
      {
        sessionId: 'session-1',
        userId: 'user-1',
        status: 'error',
        error: expect.objectContaining({ context: 'llm_call' }),
      },
    ]);
    expect(h.stream.at(-1)).toEqual({ type: 'error', message: 'Anthropic API error 529: overloaded' });
    expect(h.stream.some((e) => e.type === 'done')).toBe(false);
    expect(h.outbound[0]?.envelope.payload).toMatchObject({ status: 'error' });
  });

  it('goes on after a failed tool call: the failure is a result, not the end', async () => {
    const h = start({
      script: [{ tool: 'swap_exercise' }, { tool: 'idle', args: { reason: 'x' } }],
      failingTools: ['swap_exercise'],
    });
    h.send();
    const result = await h.result();
    expect(result).toMatchObject({ status: 'completed', stop_reason: 'idle', iterations: 2 });
    expect(result?.actions[0]?.result.success).toBe(false);
  });

  it('logs an initializer failure as context_init and runs the agent anyway (§12.3)', async () => {
    const h = start({ script: workoutCycle, initializer: { error: 'OpenAI 500' } });
    h.send();
    expect(await h.result()).toMatchObject({ status: 'completed', stop_reason: 'idle' });
    expect(h.calls.errors).toEqual([{ sessionId: 'session-1', message: 'OpenAI 500', context: 'context_init' }]);
  });

  it('gives up on a silent initializer at the context timeout, cancelling it', async () => {
    const h = start({ script: workoutCycle, initializer: { hang: true } });
    h.send();
    await h.settle();
    expect(h.state()).toBe('initializing');
    h.clock.increment(DEFAULT_CONTEXT_TIMEOUT_MS - 1);
    await h.settle();
    expect(h.state()).toBe('initializing');
    h.clock.increment(1);
    const result = await h.result();
    expect(result).toMatchObject({ status: 'completed', stop_reason: 'idle', iterations: 3 });
    expect(h.calls.errors[0]).toMatchObject({ context: 'context_init' });
    expect(h.calls.aborted).toContain('initializer');
  });

  it('ends in error when the model does not answer within the model timeout, aborting the call', async () => {
    const h = start({ script: [{ hang: true }], loop: { modelTimeoutMs: 5_000 } });
    h.send();
    await h.settle();
    expect(h.state()).toBe('calling');
    h.clock.increment(4_999);
    await h.settle();
    expect(h.state()).toBe('calling');
    h.clock.increment(1);
    expect(await h.result()).toMatchObject({
      status: 'error',
      stop_reason: 'model_error',
      error: 'The model did not answer within 5000 ms.',
      error_code: 'model_timeout',
    });
    expect(h.calls.aborted).toContain('model:1');
    expect(DEFAULT_MODEL_TIMEOUT_MS).toBeGreaterThan(5_000);
  });

  it('records a tool that outlives the tool timeout as failed and goes on', async () => {
    const h = start({
      script: [{ tool: 'fetch_data' }, { tool: 'idle', args: { reason: 'x' } }],
      hangingTools: ['fetch_data'],
    });
    h.send();
    await h.settle();
    expect(h.state()).toBe('executing');
    h.clock.increment(DEFAULT_TOOL_TIMEOUT_MS);
    const result = await h.result();
    expect(result).toMatchObject({ status: 'completed', stop_reason: 'idle', iterations: 2 });
    expect(h.calls.timeouts).toEqual([
      {
        sessionId: 'session-1',
        call: { id: 'call-1', name: 'fetch_data', arguments: {} },
        timeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
      },
    ]);
  });

  it('fails the turn with an error event when the session cannot be ended', async () => {
    const h = start({ script: [{ tool: 'idle', args: { reason: 'x' } }], finishFails: true });
    h.send();
    expect(await h.result()).toMatchObject({
      status: 'error',
      stop_reason: 'internal_error',
      error: 'store unavailable',
    });
    expect(h.stream.at(-1)).toEqual({ type: 'error', message: 'store unavailable' });
  });
});
