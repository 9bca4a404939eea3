import { describe, expect, it } from 'vitest';
import { initialTransition, transition, type AnyEventObject } from 'xstate';
import type { ToolOutcome } from '../../../../actors/trainer/loop/loop-run-tool.ts';
import { agentLoopMachine } from '../../../../machines/trainer/agent-loop.ts';
import { initialLoopContext, type AgentLoopContext } from '../../../../machines/trainer/agent-loop-context.ts';
import { fakeOutcome } from '../../../support/trainer/trainer-loop-harness.ts';

const turn = {
  requestId: 'turn-1',
  sessionId: 'session-1',
  user_id: 'user-1',
  message: 'Give me a quick chest workout',
  model: 'claude-haiku-4-5',
};

function chatRequest(
  payload: Record<string, unknown> = { user_id: 'user-1', message: turn.message, model: turn.model },
) {
  return {
    type: 'agent.request',
    requestId: 'turn-1',
    input: {
      envelope: {
        message_id: 'turn-1',
        from_agent: 'USER',
        to_agent: 'TRAINER',
        data_type: 'chat_request',
        session_id: 'session-1',
        payload,
      },
      delivery: { kind: 'direct' },
    },
  } as const;
}

/** The machine's snapshot in `state` with a turn under way. */
function at(state: string, changes: Partial<AgentLoopContext> = {}) {
  return agentLoopMachine.resolveState({
    value: state,
    context: { ...initialLoopContext({ name: 'TRAINER' }), turn, ...changes },
  });
}

const step = (state: string, event: AnyEventObject, changes: Partial<AgentLoopContext> = {}) =>
  transition(agentLoopMachine, at(state, changes), event as never);

const emitted = (actions: readonly { type: string; params?: unknown }[]) =>
  actions
    .filter((a) => a.type === 'xstate.emit')
    .map((a) => (a.params as { event: { event: { type: string } } }).event.event);

const outcome = (tool: string, failed = false): ToolOutcome =>
  fakeOutcome({ id: 'call-1', name: tool, arguments: { reason: 'done' } }, failed);

/*
 * Pure transitions. Transitions that send to the supervisor (the context request, the turn result)
 * need a parent, so they are checked under a real supervisor in agent-loop-run.test.ts.
 */
describe('agentLoopMachine', () => {
  it('waits for the chat request, then records the turn', () => {
    const [start] = initialTransition(agentLoopMachine, { name: 'TRAINER' });
    expect(start.value).toBe('awaitingMessage');
    const [next] = transition(agentLoopMachine, start, chatRequest());
    expect(next.value).toBe('recording');
    expect(next.context.turn).toMatchObject({
      sessionId: 'session-1',
      user_id: 'user-1',
      message: turn.message,
      requestId: 'turn-1',
    });
  });

  it('refuses a chat request with a blank message', () => {
    const [start] = initialTransition(agentLoopMachine, { name: 'TRAINER' });
    const [next] = transition(agentLoopMachine, start, chatRequest({ user_id: 'user-1', message: '   ', model: 'x' }));
    expect(next.value).toBe('awaitingMessage');
  });

  it('calls the model once the context is loaded, emitting one knowledge event per source', () => {
    const loaded = {
      type: 'agent.request',
      requestId: 'turn-1:context:loaded',
      input: {
        envelope: {
          message_id: 'turn-1:context:loaded',
          from_agent: 'INITIALIZER',
          to_agent: 'TRAINER',
          data_type: 'context_loaded',
          session_id: 'session-1',
          payload: {
            sources: [
              { source: 'category_goals', displayName: 'Goals' },
              { source: 'workout_history', displayName: 'Workout History' },
            ],
            reasoning: 'workout',
          },
        },
        delivery: { kind: 'response', correlationId: 'turn-1:context' },
      },
    };
    const [next, actions] = step('initializing', loaded);
    expect(next.value).toBe('calling');
    expect(next.context.iteration).toBe(1);
    expect(emitted(actions)).toEqual([
      { type: 'knowledge', data: { source: 'category_goals', displayName: 'Goals', status: 'done' } },
      { type: 'knowledge', data: { source: 'workout_history', displayName: 'Workout History', status: 'done' } },
    ]);
  });

  it('goes on without new context when the initializer fails or is refused (§12.3)', () => {
    const failed = {
      type: 'supervisor.report',
      report: {
        type: 'agent.report',
        agent: 'INITIALIZER',
        requestId: 'turn-1:context',
        attempts: 1,
        outcome: { status: 'failed', failure: { kind: 'error', message: 'OpenAI down' } },
      },
    };
    const [next] = step('initializing', failed);
    expect(next.value).toBe('contextUnavailable');
    expect(next.context.contextError).toBe('OpenAI down');
    const refused = {
      type: 'supervisor.rejected',
      error: { code: 'request_timeout', message: 'late' },
      envelope: { message_id: 'turn-1:context' },
    };
    expect(step('initializing', refused)[0].value).toBe('contextUnavailable');
    const other = {
      type: 'supervisor.rejected',
      error: { code: 'request_timeout', message: 'late' },
      envelope: { message_id: 'someone-else' },
    };
    expect(step('initializing', other)[0].value).toBe('initializing');
    expect(step('contextUnavailable', { type: 'xstate.done.actor.logError' })[0].value).toBe('calling');
  });

  it('executes the tool the model chose, emitting status start then tool_start', () => {
    const call = { id: 'call-1', name: 'generate_workout', arguments: { workout: {} } };
    const [next, actions] = step(
      'calling',
      {
        type: 'xstate.done.actor.callModel',
        output: { toolCall: call, costCents: 0, cachedTokens: 0, promptTokens: 1 },
      },
      { iteration: 1 },
    );
    expect(next.value).toBe('executing');
    expect(next.context.call).toEqual(call);
    expect(emitted(actions)).toEqual([
      { type: 'status', data: { message: 'Creating your workout...', tool: 'generate_workout', phase: 'start' } },
      { type: 'generate_workout', data: { status: 'running', args: { workout: {} } } },
    ]);
  });

  it('stops when the response has no tool call, logging it as an error', () => {
    const [next] = step(
      'calling',
      {
        type: 'xstate.done.actor.callModel',
        output: { toolCall: undefined, costCents: 0, cachedTokens: 0, promptTokens: 1 },
      },
      { iteration: 1 },
    );
    expect(next.value).toBe('finishing');
    expect(next.context.stopReason).toBe('no_tool_call');
    expect(next.context.error).toMatchObject({ message: 'No tool call in response' });
  });

  it('stops with model_error when the model call fails (§3.2 LLM error)', () => {
    const [next] = step(
      'calling',
      { type: 'xstate.error.actor.callModel', error: new Error('overloaded') },
      { iteration: 1 },
    );
    expect(next.value).toBe('finishing');
    expect(next.context.stopReason).toBe('model_error');
    expect(next.context.error).toMatchObject({ message: 'overloaded', context: 'llm_call' });
  });

  it('stops after idle and after message_ask_user; continues after any other tool', () => {
    const done = (o: ToolOutcome, iteration = 1) =>
      step(
        'executing',
        { type: 'xstate.done.actor.runTool', output: o },
        { iteration, call: { id: 'call-1', name: o.tool, arguments: {} } },
      )[0];
    expect(done(outcome('idle'))).toMatchObject({ value: 'finishing', context: { stopReason: 'idle' } });
    expect(done(outcome('message_ask_user'))).toMatchObject({
      value: 'finishing',
      context: { stopReason: 'awaiting_user' },
    });
    const next = done(outcome('generate_workout'), 3);
    expect(next.value).toBe('calling');
    expect(next.context.iteration).toBe(4);
    expect(next.context.actions).toHaveLength(1);
  });

  it('continues after a failed tool, even a failed idle (invalid arguments are not an end)', () => {
    const [next, actions] = step(
      'executing',
      { type: 'xstate.done.actor.runTool', output: outcome('idle', true) },
      { iteration: 2, call: { id: 'c', name: 'idle', arguments: {} } },
    );
    expect(next.value).toBe('calling');
    expect(emitted(actions).map((e) => e.type)).toEqual(['idle', 'status']);
    expect(emitted(actions)[1]).toMatchObject({ data: { phase: 'error' } });
  });

  it('stops at the iteration limit with the error logged but the session completed', () => {
    const [next] = step(
      'executing',
      { type: 'xstate.done.actor.runTool', output: outcome('generate_workout') },
      { iteration: 10, call: { id: 'c', name: 'generate_workout', arguments: {} } },
    );
    expect(next.value).toBe('finishing');
    expect(next.context.stopReason).toBe('max_iterations');
    expect(next.context.error?.context).toBe('max_iterations');
  });
});
