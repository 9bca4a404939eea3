/**
 * The lifecycle of one trainer session (spec 001 §7.6): `active` until the agent loop ends it
 * as `completed` or `error`; a new message to an ended session makes it `active` again.
 * It accepts `session.complete`, `session.fail` and `session.continue`, and emits nothing.
 */
import { setup, transition, type SnapshotFrom } from 'xstate';
import type { SessionStatus } from '../../protocol/trainer/session.ts';
import type { SessionEventType } from '../../protocol/trainer/session-transitions.ts';

/** An event of the session lifecycle. */
type SessionLifecycleEvent = { type: SessionEventType };

export const sessionMachine = setup({
  types: {
    events: {} as SessionLifecycleEvent,
  },
}).createMachine({
  id: 'session',
  initial: 'active',
  states: {
    active: {
      description: 'The agent loop may be running; events are appended to the session.',
      on: {
        'session.complete': { target: 'completed' },
        'session.fail': { target: 'error' },
      },
    },
    completed: {
      description: 'The last turn ended normally (idle, a question, the iteration limit or no tool call).',
      on: { 'session.continue': { target: 'active' } },
    },
    error: {
      description: 'The last turn ended on a fatal error (a failed model call); the user may send another message.',
      on: { 'session.continue': { target: 'active' } },
    },
  },
});

type SessionMachine = typeof sessionMachine;

/** The machine's snapshot for a session stored with `status`. */
export function sessionSnapshotOf(status: SessionStatus): SnapshotFrom<SessionMachine> {
  return sessionMachine.resolveState({ value: status, context: undefined as never });
}

/**
 * The status a session stored with `status` has after `event`, computed by the machine; undefined
 * when the machine does not accept the event there (no transition is declared for it).
 *
 * @example
 * nextSessionStatus('completed', 'session.continue'); // 'active'
 * nextSessionStatus('completed', 'session.fail');     // undefined
 */
export function nextSessionStatus(status: SessionStatus, event: SessionEventType): SessionStatus | undefined {
  const key = `${status}\u0000${event}`;
  // The machine is pure: each (status, event) is computed by it once, then remembered (a turn asks twice).
  if (decided.has(key)) return decided.get(key);
  const snapshot = sessionSnapshotOf(status);
  const next = snapshot.can({ type: event })
    ? (transition(sessionMachine, snapshot, { type: event })[0].value as SessionStatus)
    : undefined;
  decided.set(key, next);
  return next;
}

/** What the machine decided for each (status, event) asked so far: a handful of entries. */
const decided = new Map<string, SessionStatus | undefined>();
