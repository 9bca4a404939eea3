/**
 * What a caller asks the supervisor's ledger to admit, and what it answers: the envelope's
 * pending delivery, or the error its sender hears.
 */
import type { DeliveryKind, RoutingError } from '../../protocol/runtime/routing.ts';
import type { PendingDelivery } from './pending-deliveries.ts';

/** An envelope refused at admission: the error its sender hears. */
export interface AdmissionRefusal {
  error: RoutingError;
  sender: string | undefined;
  envelope: unknown;
}

/** The outcome of admitting one envelope: delivered later (its pending delivery), or refused now. */
export type Admission = PendingDelivery | AdmissionRefusal;

/** Whether an admission was refused. */
export const isRefusal = (admission: Admission): admission is AdmissionRefusal => 'error' in admission;

/** What a caller asks the ledger to admit. */
export interface AdmissionRequest {
  kind: DeliveryKind;
  envelope: unknown;
  topic?: string | undefined;
  /** For a response: the message id of the request it answers. */
  inReplyTo?: string | undefined;
  context?: unknown;
  /**
   * Idempotent delivery: an envelope whose id was already journaled is delivered again without a
   * second journal entry (a restarted run handing in-flight work to its new agents).
   */
  redeliver?: boolean;
}

/** A refusal of `request`'s envelope, told to `sender`. */
export function refusal(
  request: AdmissionRequest,
  sender: string | undefined,
  error: Pick<RoutingError, 'code' | 'message'>,
  issues?: RoutingError['issues'],
): AdmissionRefusal {
  return { error: issues ? { ...error, issues } : error, sender, envelope: request.envelope };
}
