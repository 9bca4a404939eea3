/**
 * Spec 004's Handoff Protocol as a transition table: the `handoff` statechart
 * (machines/org/handoff.ts) is checked against it both ways. A handoff is one deliverable from one
 * sender to one receiver; a fix re-initiates the same handoff, and its second rejection escalates
 * (no third try). An ack that never comes is not a rejection: the handoff is `undeliverable` and
 * the runtime's dead letter escalates it.
 */
export const HANDOFF_STATES = [
  'complete',
  'notified',
  'validating',
  'accepted',
  'rejected',
  'escalated',
  'undeliverable',
] as const;
export type HandoffState = (typeof HANDOFF_STATES)[number];

/** The handoff's events: each is read off the project's journal (an envelope or an ack record). */
export const HANDOFF_EVENTS = [
  'handoff.notify',
  'handoff.acked',
  'handoff.accepted',
  'handoff.rejected',
  'handoff.undeliverable',
] as const;
export type HandoffEventType = (typeof HANDOFF_EVENTS)[number];

export interface HandoffTransition {
  from: HandoffState;
  event: HandoffEventType;
  to: HandoffState;
  /** The guard, when the event may lead to several states. */
  guard?: 'isFirstRejection' | 'isSecondRejection';
  /** The step of the spec's Handoff Protocol. */
  step: string;
}

export const HANDOFF_TRANSITIONS: readonly HandoffTransition[] = Object.freeze([
  { from: 'complete', event: 'handoff.notify', to: 'notified', step: '1-2: complete with self-assessment, notify' },
  { from: 'notified', event: 'handoff.acked', to: 'validating', step: '3: receiver acknowledges receipt' },
  { from: 'notified', event: 'handoff.undeliverable', to: 'undeliverable', step: 'no ack after every retry' },
  { from: 'validating', event: 'handoff.accepted', to: 'accepted', step: '5: valid, receiver begins work' },
  {
    from: 'validating',
    event: 'handoff.rejected',
    guard: 'isFirstRejection',
    to: 'rejected',
    step: '6: invalid, specific issues',
  },
  {
    from: 'validating',
    event: 'handoff.rejected',
    guard: 'isSecondRejection',
    to: 'escalated',
    step: '8: rejected twice, escalate to the chief',
  },
  { from: 'rejected', event: 'handoff.notify', to: 'notified', step: '7: sender fixes and re-initiates' },
]);

/** States a handoff ends in. */
export const FINAL_HANDOFF_STATES: readonly HandoffState[] = ['accepted', 'escalated', 'undeliverable'];
