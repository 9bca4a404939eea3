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
 * Ends a turn (spec 001 §3.1 `endSession`): logs the error that ended it, if any, waits until
 * every event of the turn is on disk (they were recorded without waiting), then ends the session
 * with its totals summed from the `llm_response` events (§7.6, §11.2). A failed write fails it.
 */
export function createFinishTurnLogic(deps: Pick<LoopDeps, 'events' | 'sessions' | 'log'>) {
  return fromPromise<AgentSession, FinishTurnInput>(async ({ input }) => {
    const { sessionId, userId, status, error } = input;
    if (error) {
      deps.log?.(sessionId, { kind: 'error', message: error.message, context: error.context });
      await deps.events.recordEvents(sessionId, [
        { type: 'error', data: { message: error.message, context: error.context, stack: error.stack ?? null } },
      ]);
    }
    // The turn's events are on disk before the session ends and the answer leaves.
    await deps.events.durable(sessionId);
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
