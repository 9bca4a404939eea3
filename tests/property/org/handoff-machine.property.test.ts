import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { initialTransition, transition } from 'xstate';
import { handoffMachine, type HandoffEvent } from '../../../machines/org/handoff.ts';
import {
  FINAL_HANDOFF_STATES,
  HANDOFF_EVENTS,
  HANDOFF_STATES,
  HANDOFF_TRANSITIONS,
  type HandoffState,
} from '../../../protocol/org/handoff-transitions.ts';

const about = {
  handoff_id: 'backend>frontend:api_contract#1',
  from: 'backend',
  to: 'frontend',
  deliverable_type: 'api_contract',
};
const eventOf = (type: HandoffEvent['type'], n: number): HandoffEvent =>
  type === 'handoff.rejected'
    ? { type, at: `t${n}`, message_id: `m${n}`, issues: [{ path: 'endpoints', message: 'missing' }] }
    : ({ type, at: `t${n}`, message_id: `m${n}` } as HandoffEvent);

/** The table's target for (state, event, rejections so far), or undefined when it has no row. */
function tableTarget(state: HandoffState, event: string, rejections: number): HandoffState | undefined {
  const rows = HANDOFF_TRANSITIONS.filter((row) => row.from === state && row.event === event);
  const row = rows.find((r) => !r.guard || (r.guard === 'isFirstRejection' ? rejections === 0 : rejections >= 1));
  return row?.to;
}

describe('the handoff statechart against its table', () => {
  it('has exactly the table states, the final ones final', () => {
    expect(Object.keys(handoffMachine.root.states).sort()).toEqual([...HANDOFF_STATES].sort());
    for (const state of HANDOFF_STATES)
      expect(handoffMachine.root.states[state]!.type === 'final').toBe(FINAL_HANDOFF_STATES.includes(state));
  });

  it('takes every event as the table says in every state it reaches (random walks, both ways)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...HANDOFF_EVENTS), { maxLength: 14 }), (types) => {
        let [snapshot] = initialTransition(handoffMachine, about);
        types.forEach((type, n) => {
          const state = snapshot.value as HandoffState;
          const expected = tableTarget(state, type, snapshot.context.rejections) ?? state;
          const before = snapshot.context.history.length;
          [snapshot] = transition(handoffMachine, snapshot, eventOf(type, n));
          expect(snapshot.value).toBe(expected);
          // A step of the history exactly when the table has a row.
          expect(snapshot.context.history.length - before).toBe(tableTarget(state, type, 0) ? 1 : 0);
        });
        expect(snapshot.context.rejections).toBeLessThanOrEqual(2);
      }),
      { numRuns: 400 },
    );
  });

  it('escalates at the second rejection of the same handoff, never a third try', () => {
    let [snapshot] = initialTransition(handoffMachine, about);
    const steps: HandoffEvent['type'][] = [
      'handoff.notify',
      'handoff.acked',
      'handoff.rejected',
      'handoff.notify',
      'handoff.acked',
      'handoff.rejected',
      'handoff.notify',
    ];
    steps.forEach((type, n) => ([snapshot] = transition(handoffMachine, snapshot, eventOf(type, n))));
    expect(snapshot.value).toBe('escalated');
    expect(snapshot.context.history.map((h) => h.state)).toEqual([
      'notified',
      'validating',
      'rejected',
      'notified',
      'validating',
      'escalated',
    ]);
  });

  it('does not count an ack timeout as a rejection', () => {
    let [snapshot] = initialTransition(handoffMachine, about);
    for (const [n, type] of (['handoff.notify', 'handoff.undeliverable'] as const).entries())
      [snapshot] = transition(handoffMachine, snapshot, eventOf(type, n));
    expect(snapshot.value).toBe('undeliverable');
    expect(snapshot.context.rejections).toBe(0);
  });
});
