import { fromPromise } from 'xstate';
import type { AgentSession } from '../../../protocol/trainer/session.ts';
import type { LoopDeps } from './loop-deps.ts';
import type { LoggedError } from './loop-log-error.ts';

/** How a turn ends. */
export interface FinishTurnInput {
  sessionId: string;
  userId: string;
  status: 'completed' | 'error';
  /** Logged first: the model error, the missing tool call, the iteration limit (§3.2). */
  error?: LoggedError;
}

/**
 * Ends a turn (spec 001 §3.1 `endSession`): logs the error that ended it, if any, then ends the
 * session with its totals summed from the `llm_response` events (§7.6, §11.2).
 */
export function createFinishTurnLogic(deps: Pick<LoopDeps, 'events' | 'sessions' | 'log'>) {
  return fromPromise<AgentSession, FinishTurnInput>(async ({ input }) => {
    const { sessionId, userId, status, error } = input;
    if (error) {
      deps.log?.(sessionId, { kind: 'error', message: error.message, context: error.context });
      await deps.events.appendEvent(sessionId, 'error', {
        message: error.message,
        context: error.context,
        stack: error.stack ?? null,
      });
    }
    const session = await deps.sessions.end(userId, sessionId, status);
    deps.log?.(sessionId, {
      kind: 'session_end',
      status: session.status,
      totalTokens: session.total_tokens,
      cachedTokens: session.cached_tokens,
      costCents: session.total_cost_cents,
    });
    return session;
  });
}
