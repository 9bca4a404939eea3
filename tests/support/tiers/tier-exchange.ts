import { delegationEnvelope, outcomeEnvelope, outcomePayload } from '../../../actors/tiers/tier-envelopes.ts';

/** When the exchange below happens. */
export const EXCHANGE_AT = Date.parse('2026-11-24T12:00:00Z');

/** The Monitor's delegation `d-1` of a task to the Architect: the envelope unit tests of one exchange start from. */
export const monitorDelegation = delegationEnvelope(
  { id: 'd-1', from: 'PROGRESS_MONITOR', to: 'ABSTRACT_ARCHITECT', correlationId: null, at: EXCHANGE_AT },
  {
    task_type: 'decompose_and_solve',
    objective: 'Solve it',
    constraints: [],
    context_refs: [],
    priority: 1,
    timeout_ms: 120_000,
    deadline_hint: null,
    specialist_hint: null,
    task_data: {},
  },
);

/** The Architect's successful outcome `o-1`, answering the delegation `correlationId`. */
export function architectOutcome(correlationId: string) {
  return outcomeEnvelope(
    { id: 'o-1', from: 'ABSTRACT_ARCHITECT', to: 'PROGRESS_MONITOR', correlationId, at: EXCHANGE_AT },
    outcomePayload({ status: 'success', summary: 'done' }),
  );
}
