import type { Tier, TiersEnvelope } from '../../protocol/tiers/envelope.ts';
import type { CancellationPayload, DelegationPayload, OutcomePayload } from '../../protocol/tiers/payloads.ts';

/** Spec 002's current version, which every tier writes. */
export const TIERS_WRITE_VERSION = '1.0.0';

interface Header {
  id: string;
  from: Tier;
  to: Tier;
  correlationId: string | null;
  /** Clock time (ms) of the message. */
  at: number;
}

/** A spec 002 `Message` around `payload`. */
function envelope(header: Header, payload: TiersEnvelope['payload']): TiersEnvelope {
  return {
    version: TIERS_WRITE_VERSION,
    id: header.id,
    timestamp: new Date(header.at).toISOString(),
    source_tier: header.from,
    target_tier: header.to,
    correlation_id: header.correlationId,
    payload,
  };
}

/**
 * A delegation down one tier (spec 002's DelegationPayload, every field set).
 *
 * @example
 * delegationEnvelope({ id, from: 'ABSTRACT_ARCHITECT', to: 'ROUTING_DISPATCHER', correlationId: 'msg-000', at: clock.now() },
 *   { task_type: 'decompose_and_solve', objective, constraints: [], context_refs: [], priority: 1, timeout_ms: 60_000,
 *     deadline_hint: null, specialist_hint: null, task_data: {} });
 */
export function delegationEnvelope(header: Header, payload: DelegationPayload): TiersEnvelope {
  return envelope(header, payload);
}

/** An outcome up one tier, answering the delegation `correlationId`. */
export function outcomeEnvelope(header: Header, payload: OutcomePayload): TiersEnvelope {
  return envelope(header, payload);
}

/** A cancellation down one tier of the delegation `target_message_id`. */
export function cancellationEnvelope(header: Header, payload: CancellationPayload): TiersEnvelope {
  return envelope(header, payload);
}

/** An outcome payload with spec 002's defaults: nothing surprising, no error, no artifact. */
export function outcomePayload(
  fields: Partial<OutcomePayload> & Pick<OutcomePayload, 'status' | 'summary'>,
): OutcomePayload {
  return {
    result_refs: [],
    confidence: 0,
    execution_time_ms: 0,
    resources_used: {},
    surprise_flag: false,
    surprise_reason: null,
    error_type: null,
    error_detail: null,
    recoverable: null,
    artifacts: [],
    ...fields,
  };
}
