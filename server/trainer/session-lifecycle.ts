import type { EventStore } from '../../actors/trainer/events/event-store.ts';
import type { SessionLifecycle } from '../../actors/trainer/loop/loop-deps.ts';
import type { Store } from '../../actors/runtime/store.ts';
import { nextSessionStatus } from '../../machines/trainer/session.ts';
import { ConflictError, NotFoundError } from '../../protocol/runtime/runtime-error.ts';
import type { AgentSession } from '../../protocol/trainer/session.ts';

/**
 * The session documents of the event store (actors/trainer/event-store.ts keeps each user's
 * sessions in this collection). The store has no way to make an ended session active again, so
 * that one write goes to the document directly.
 */
const sessionsOf = (userId: string) => `trainer/sessions/${userId}`;

/**
 * Session status changes as the session statechart allows them (machines/session.ts): a new
 * message makes an ended session active again; a turn ends an active session as completed or
 * error, with its totals. A change the statechart refuses is a 409.
 */
export function createSessionLifecycle(options: {
  store: Store;
  events: EventStore;
  now?: () => Date;
}): SessionLifecycle {
  const { store, events, now = () => new Date() } = options;

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
      await store.collection<AgentSession>(sessionsOf(userId)).update(sessionId, (stored) => {
        if (stored === undefined) throw new NotFoundError(`Session ${sessionId}`);
        return { ...stored, status: next, updated_at: now().toISOString() };
      });
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
