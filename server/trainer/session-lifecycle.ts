import type { EventStore } from '../../actors/trainer/events/event-store.ts';
import type { SessionLifecycle } from '../../actors/trainer/loop/loop-deps.ts';
import { nextSessionStatus } from '../../machines/trainer/session.ts';
import { ConflictError, NotFoundError } from '../../protocol/runtime/runtime-error.ts';
import type { AgentSession } from '../../protocol/trainer/session.ts';

/**
 * Session status changes as the session statechart allows them (machines/session.ts): a new
 * message makes an ended session active again; a turn ends an active session as completed or
 * error, with its totals. A change the statechart refuses is a 409.
 */
export function createSessionLifecycle(options: { events: EventStore }): SessionLifecycle {
  const { events } = options;

  async function current(userId: string, sessionId: string): Promise<AgentSession> {
    const session = await events.getSession(userId, sessionId);
    if (session === undefined) throw new NotFoundError(`Session ${sessionId}`);
    return session;
  }

  return {
    async continue(userId, sessionId) {
      const session = await current(userId, sessionId);
      // An active session takes the message as it is: only ended sessions change status.
      if (session.status === 'active') return;
      const next = nextSessionStatus(session.status, 'session.continue');
      if (next === undefined)
        throw new ConflictError('session_status', `Session ${sessionId} cannot be continued from ${session.status}.`);
      // Active for this turn in memory; the turn's end writes the status it ends with.
      if (next === 'active') await events.beginTurn(userId, sessionId);
      else await events.setStatus(userId, sessionId, next);
    },

    async end(userId, sessionId, status) {
      const session = await current(userId, sessionId);
      const next = nextSessionStatus(session.status, status === 'completed' ? 'session.complete' : 'session.fail');
      if (next !== status) {
        throw new ConflictError(
          'session_status',
          `Session ${sessionId} is ${session.status}; only an active session can end as ${status}.`,
        );
      }
      return events.endSession(sessionId, status);
    },
  };
}
