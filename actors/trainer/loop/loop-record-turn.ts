import { fromPromise } from 'xstate';
import type { LoopDeps } from './loop-deps.ts';
import { formatClientWorkout } from '../tools/workout-format.ts';

/** The source name of the client's workout state as knowledge (spec 001 §3.1). */
const CURRENT_WORKOUT_SOURCE = 'current_workout_session';

/** What a turn starts from. */
export interface RecordTurnInput {
  sessionId: string;
  userId: string;
  message: string;
  currentWorkout?: unknown;
}

/**
 * Opens a turn (spec 001 §3.1, first lines): the session becomes active again if it had ended,
 * the user's message is logged, and the client's current workout, when it sent one, is taken over
 * for the workout tools and logged as `current_workout_session` knowledge.
 */
export function createRecordTurnLogic(deps: Pick<LoopDeps, 'events' | 'sessions' | 'workouts' | 'log'>) {
  return fromPromise<void, RecordTurnInput>(async ({ input }) => {
    await deps.sessions.continue(input.userId, input.sessionId);
    await deps.events.appendEvent(input.sessionId, 'user_message', { message: input.message });
    deps.log?.(input.sessionId, { kind: 'user_message', message: input.message });
    if (input.currentWorkout === undefined || input.currentWorkout === null) return;
    deps.workouts.seedFromClient(input.sessionId, input.currentWorkout);
    const data = formatClientWorkout(input.currentWorkout);
    await deps.events.appendEvent(input.sessionId, 'knowledge', { source: CURRENT_WORKOUT_SOURCE, data });
    deps.log?.(input.sessionId, { kind: 'knowledge', source: CURRENT_WORKOUT_SOURCE, chars: data.length });
  });
}
