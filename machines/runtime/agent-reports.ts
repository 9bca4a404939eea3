import { inputHash } from '../../actors/runtime/input-hash.ts';
import type { AgentAckEvent, AgentOutcome, AgentReport } from '../../protocol/runtime/agent-report.ts';
import { errorMessage } from '../../protocol/runtime/error-message.ts';
import { ValidationError } from '../../protocol/runtime/runtime-error.ts';
import type { AgentContext } from './agent-context.ts';

/**
 * What the agent worker sends its parent, as pure builders: the one report of each request (of
 * the request in hand, or of one that never started), its ack, and the failures a brain run ends
 * with.
 */

/**
 * The report of the request in hand, after `context.attempts` brain runs.
 *
 * @example
 * sendParent(({ context }) => reportOf(context, { status: 'cancelled' }));
 */
export function reportOf(context: AgentContext, outcome: AgentOutcome): AgentReport {
  // Report actions only run inside `working`, where `current` is always set.
  if (context.current === null) {
    throw new Error(`Agent ${context.name} tried to report with no current request (a bug).`);
  }
  return {
    type: 'agent.report',
    agent: context.name,
    requestId: context.current.requestId,
    attempts: context.attempts,
    outcome,
  };
}

/** The report of a request that never started (throttled, or cancelled while queued): no attempts. */
export function unstartedReport(agent: string, requestId: string, outcome: AgentOutcome): AgentReport {
  return { type: 'agent.report', agent, requestId, attempts: 0, outcome };
}

/** The ack of a request taken from the mailbox (or redelivered after it started). */
export function ackOf(agent: string, requestId: string): AgentAckEvent {
  return { type: 'agent.ack', agent, requestId };
}

/** The brain's output failed validation: the issues of its {@link ValidationError}, if it is one. */
export function validationFailure(error: unknown): AgentOutcome {
  return {
    status: 'failed',
    failure: { kind: 'validation', issues: error instanceof ValidationError ? error.issues : [] },
  };
}

/** The brain threw (its last attempt): the error's message. */
export function errorFailure(error: unknown): AgentOutcome {
  return {
    status: 'failed',
    failure: { kind: 'error', message: errorMessage(error) },
  };
}

/** Every attempt ran out of time: the timeout, and a hash of the input that timed out. */
export function timeoutFailure(context: AgentContext): AgentOutcome {
  return {
    status: 'failed',
    failure: {
      kind: 'timeout',
      timeout_duration_ms: context.timeoutMs,
      input_hash: inputHash(context.current?.input),
    },
  };
}
