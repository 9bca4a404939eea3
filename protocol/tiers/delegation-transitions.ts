import { z } from 'zod';
import { OutcomeStatusSchema, type TerminalStatus } from '../runtime/outcome-status.ts';

/** Where one delegation message is: journaled, taken by its target, or ended with a terminal status. */
export const DelegationStatusSchema = z.enum([
  'pending',
  'working',
  ...OutcomeStatusSchema.options.filter((status): status is TerminalStatus => status !== 'throttled'),
]);
export type DelegationStatus = z.infer<typeof DelegationStatusSchema>;

/** The terminal statuses (spec 002's OutcomeStatus but `throttled`, which asks for a retry). */
export const DELEGATION_TERMINALS = DelegationStatusSchema.options.filter(
  (status): status is TerminalStatus => status !== 'pending' && status !== 'working',
);

/**
 * What moves a delegation: its target took it (`delegation.started`), its target was overloaded
 * (`delegation.throttled`: retried later under a new id, this one waits), or an ending event per
 * terminal status (`delegation.success`, ..., `delegation.timeout` from the target or the
 * sender's watchdog, `delegation.cancelled` from a cancellation).
 */
export const DelegationEventTypeSchema = z.enum([
  'delegation.started',
  'delegation.throttled',
  ...DELEGATION_TERMINALS.map((status) => `delegation.${status}` as const),
]);
export type DelegationEventType = z.infer<typeof DelegationEventTypeSchema>;

type DelegationTransition = { from: DelegationStatus; to: DelegationStatus; event: DelegationEventType };

/**
 * Every status change of a delegation, and nothing else: `pending` until its target takes it;
 * `throttled` keeps it pending (the sender retries); from `pending` or `working`, any terminal
 * status ends it (a target may answer at once, a watchdog or a cancellation may end it before it
 * started). A terminal status is final: a later outcome is journaled as late and changes nothing.
 */
export const DELEGATION_TRANSITIONS: readonly DelegationTransition[] = [
  { from: 'pending', to: 'working', event: 'delegation.started' },
  { from: 'pending', to: 'pending', event: 'delegation.throttled' },
  ...(['pending', 'working'] as const).flatMap((from) =>
    DELEGATION_TERMINALS.map((to) => ({ from, to, event: `delegation.${to}` as DelegationEventType })),
  ),
];

/** The status a delegation has once journaled. */
export const INITIAL_DELEGATION_STATUS: DelegationStatus = 'pending';
