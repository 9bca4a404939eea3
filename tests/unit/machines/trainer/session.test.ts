import { describe, expect, it } from 'vitest';
import { initialTransition, transition } from 'xstate';
import { nextSessionStatus, sessionMachine, sessionSnapshotOf } from '../../../../machines/trainer/session.ts';
import { SessionStatusSchema } from '../../../../protocol/trainer/session.ts';
import {
  INITIAL_SESSION_STATUS,
  SESSION_TRANSITIONS,
  SessionEventTypeSchema,
} from '../../../../protocol/trainer/session-transitions.ts';

const STATUSES = SessionStatusSchema.options;
const EVENTS = SessionEventTypeSchema.options;
const TABLE = new Map(SESSION_TRANSITIONS.map((t) => [`${t.from}|${t.event}`, t.to]));

describe('sessionMachine', () => {
  it('starts active, like a new session (§12.5)', () => {
    const [snapshot] = initialTransition(sessionMachine);
    expect(snapshot.value).toBe(INITIAL_SESSION_STATUS);
    expect(snapshot.value).toBe('active');
  });

  it('ends an active session as completed or error (§7.6)', () => {
    const [active] = initialTransition(sessionMachine);
    expect(transition(sessionMachine, active, { type: 'session.complete' })[0].value).toBe('completed');
    expect(transition(sessionMachine, active, { type: 'session.fail' })[0].value).toBe('error');
  });

  it('makes an ended session active again when a new message continues it (§12.9 step 8)', () => {
    for (const status of ['completed', 'error'] as const) {
      const [next] = transition(sessionMachine, sessionSnapshotOf(status), { type: 'session.continue' });
      expect(next.value).toBe('active');
    }
  });

  it('takes exactly the transitions of the table, from every status and for every event', () => {
    for (const status of STATUSES) {
      for (const event of EVENTS) {
        const before = sessionSnapshotOf(status);
        const [after] = transition(sessionMachine, before, { type: event });
        const expected = TABLE.get(`${status}|${event}`);
        expect(before.can({ type: event }), `${status} on ${event}`).toBe(expected !== undefined);
        expect(after.value, `${status} on ${event}`).toBe(expected ?? status);
        expect(nextSessionStatus(status, event)).toBe(expected);
      }
    }
  });

  it('declares no transition outside the table', () => {
    const declared = Object.entries(sessionMachine.config.states ?? {}).flatMap(([from, node]) =>
      Object.entries((node as { on?: Record<string, { target: string }> }).on ?? {}).map(
        ([event, t]) => `${from}|${event}|${t.target}`,
      ),
    );
    expect(declared.sort()).toEqual(SESSION_TRANSITIONS.map((t) => `${t.from}|${t.event}|${t.to}`).sort());
  });

  it('ignores a complete or fail for a session that is not active', () => {
    expect(nextSessionStatus('completed', 'session.complete')).toBeUndefined();
    expect(nextSessionStatus('error', 'session.complete')).toBeUndefined();
    expect(nextSessionStatus('completed', 'session.fail')).toBeUndefined();
    expect(nextSessionStatus('active', 'session.continue')).toBeUndefined();
  });
});
