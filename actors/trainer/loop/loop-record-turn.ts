import { fromPromise } from 'xstate';
import type { PendingEvent } from '../events/event-store.ts';
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
    const pending: PendingEvent[] = [{ type: 'user_message', data: { message: input.message } }];
    const workout = input.currentWorkout;
    const data = workout === undefined || workout === null ? undefined : formatClientWorkout(workout);
    if (data !== undefined) {
      deps.workouts.seedFromClient(input.sessionId, workout);
      pending.push({ type: 'knowledge', data: { source: CURRENT_WORKOUT_SOURCE, data } });
    }
    // Recorded, not waited for: the turn's answer waits until its events are on disk (finishTurn).
    await deps.events.recordEvents(input.sessionId, pending);
    deps.log?.(input.sessionId, { kind: 'user_message', message: input.message });
    if (data !== undefined)
      deps.log?.(input.sessionId, { kind: 'knowledge', source: CURRENT_WORKOUT_SOURCE, chars: data.length });
  });
}
