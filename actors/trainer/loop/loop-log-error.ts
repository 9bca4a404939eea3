import { fromPromise } from 'xstate';
import type { LoopDeps } from './loop-deps.ts';

/** An error to log as an `error` event; `context` says where (`context_init`, `llm_call`, ...). */
export interface LoggedError {
  message: string;
  context: string;
  stack?: string | null;
  /** The error's code when it was a RuntimeError (`model_rate_limited`, ...), for the caller. */
  code?: string;
}

/** What the error logger is invoked with. */
export interface LogErrorInput extends LoggedError {
  sessionId: string;
}

/** Appends an `error` event to the session (spec 001 §7.3); the loop goes on afterwards. */
export function createLogErrorLogic(deps: Pick<LoopDeps, 'events' | 'log'>) {
  return fromPromise<void, LogErrorInput>(async ({ input }) => {
    deps.log?.(input.sessionId, { kind: 'error', message: input.message, context: input.context });
    await deps.events.recordEvents(input.sessionId, [
      { type: 'error', data: { message: input.message, context: input.context, stack: input.stack ?? null } },
    ]);
  });
}
