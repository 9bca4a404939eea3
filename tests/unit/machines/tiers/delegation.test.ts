import { describe, expect, it } from 'vitest';
import { initialTransition, transition } from 'xstate';
import {
  delegationMachine,
  delegationSnapshotOf,
  nextDelegationStatus,
} from '../../../../machines/tiers/delegation.ts';
import {
  DELEGATION_TRANSITIONS,
  DelegationEventTypeSchema,
  DelegationStatusSchema,
  INITIAL_DELEGATION_STATUS,
} from '../../../../protocol/tiers/delegation-transitions.ts';

const STATUSES = DelegationStatusSchema.options;
const EVENTS = DelegationEventTypeSchema.options;
const TABLE = new Map(DELEGATION_TRANSITIONS.map((t) => [`${t.from}|${t.event}`, t.to]));

describe('delegationMachine', () => {
  it('starts pending, as a delegation once journaled', () => {
    expect(initialTransition(delegationMachine)[0].value).toBe(INITIAL_DELEGATION_STATUS);
  });

  it('has a state per status: pending, working and each terminal status but throttled', () => {
    expect(Object.keys(delegationMachine.config.states ?? {}).sort()).toEqual([...STATUSES].sort());
    expect(STATUSES).not.toContain('throttled');
    expect(STATUSES).toHaveLength(9);
  });

  it('takes exactly the transitions of the table, from every status and for every event', () => {
    for (const status of STATUSES) {
      for (const event of EVENTS) {
        const expected = TABLE.get(`${status}|${event}`);
        const before = delegationSnapshotOf(status);
        const [after] = transition(delegationMachine, before, { type: event });
        expect(nextDelegationStatus(status, event), `${status} on ${event}`).toBe(expected);
        if (expected !== undefined) expect(after.value, `${status} on ${event}`).toBe(expected);
      }
    }
  });

  it('declares no transition outside the table', () => {
    const declared = Object.entries(delegationMachine.config.states ?? {}).flatMap(([from, node]) =>
      Object.entries((node as { on?: Record<string, { target: string }> }).on ?? {}).map(
        ([event, t]) => `${from}|${event}|${t.target}`,
      ),
    );
    expect(declared.sort()).toEqual(DELEGATION_TRANSITIONS.map((t) => `${t.from}|${t.event}|${t.to}`).sort());
  });

  it('ends a delegation once: a terminal status accepts nothing (a late outcome changes nothing)', () => {
    for (const status of STATUSES.filter((s) => s !== 'pending' && s !== 'working')) {
      expect(delegationSnapshotOf(status).status).toBe('done');
      for (const event of EVENTS) expect(nextDelegationStatus(status, event)).toBeUndefined();
    }
  });

  it('lets a watchdog or a cancellation end a delegation its target never took', () => {
    expect(nextDelegationStatus('pending', 'delegation.timeout')).toBe('timeout');
    expect(nextDelegationStatus('pending', 'delegation.cancelled')).toBe('cancelled');
    expect(nextDelegationStatus('pending', 'delegation.throttled')).toBe('pending');
    expect(nextDelegationStatus('working', 'delegation.throttled')).toBeUndefined();
  });
});
