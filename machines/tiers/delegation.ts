/**
 * The lifecycle of one delegation message (spec 002): `pending` once journaled, `working` once
 * its target took it, then exactly one terminal status (each of spec 002's but `throttled`,
 * which keeps it pending while the sender retries). It accepts the `delegation.*` events of
 * `protocol/tiers/delegation-transitions.ts`, and emits nothing.
 */
import { setup, transition, type SnapshotFrom } from 'xstate';
import type { TerminalStatus } from '../../protocol/runtime/outcome-status.ts';
import type { DelegationEventType, DelegationStatus } from '../../protocol/tiers/delegation-transitions.ts';

/** An event of a delegation's lifecycle. */
export type DelegationEvent = { type: DelegationEventType };

/** The terminal transitions of a non-terminal state, one per status. */
const endings = {
  'delegation.success': { target: 'success' },
  'delegation.partial': { target: 'partial' },
  'delegation.failed': { target: 'failed' },
  'delegation.blocked': { target: 'blocked' },
  'delegation.needs_clarification': { target: 'needs_clarification' },
  'delegation.timeout': { target: 'timeout' },
  'delegation.cancelled': { target: 'cancelled' },
} as const satisfies Record<`delegation.${TerminalStatus}`, { target: TerminalStatus }>;

export const delegationMachine = setup({
  types: { events: {} as DelegationEvent },
}).createMachine({
  id: 'delegation',
  initial: 'pending',
  states: {
    pending: {
      description: 'Journaled and sent; its target has not taken it yet (a throttled target keeps it here).',
      on: {
        'delegation.started': { target: 'working' },
        'delegation.throttled': { target: 'pending' },
        ...endings,
      },
    },
    working: {
      description: 'Its target works on it under the sender’s watchdog (its deadline, clamped to its parent’s).',
      on: endings,
    },
    success: { type: 'final', description: 'Completed as requested.' },
    partial: { type: 'final', description: 'Some objectives met (an aggregate that did not fully succeed).' },
    failed: { type: 'final', description: 'Could not complete (after retries and re-routing).' },
    blocked: {
      type: 'final',
      description: 'A dependency failed: never started; the owner answers with a new delegation.',
    },
    needs_clarification: {
      type: 'final',
      description:
        'Ambiguous: the question flows up; the work resumes as a new delegation with the same correlation_id.',
    },
    timeout: { type: 'final', description: 'No answer by the deadline: the sender’s watchdog is authoritative.' },
    cancelled: { type: 'final', description: 'Aborted by a higher tier, with the partial results it had.' },
  },
});

type DelegationMachine = typeof delegationMachine;

/** The machine's snapshot for a delegation in `status`. */
export function delegationSnapshotOf(status: DelegationStatus): SnapshotFrom<DelegationMachine> {
  return delegationMachine.resolveState({ value: status, context: undefined as never });
}

/**
 * The status after `event`, computed by the machine; undefined when it does not accept the
 * event there (a terminal status accepts nothing: a late outcome changes nothing).
 *
 * @example
 * nextDelegationStatus('pending', 'delegation.started'); // 'working'
 * nextDelegationStatus('success', 'delegation.failed');  // undefined
 */
export function nextDelegationStatus(
  status: DelegationStatus,
  event: DelegationEventType,
): DelegationStatus | undefined {
  const snapshot = delegationSnapshotOf(status);
  if (snapshot.status === 'done' || !snapshot.can({ type: event })) return undefined;
  const [next] = transition(delegationMachine, snapshot, { type: event });
  return next.value as DelegationStatus;
}
