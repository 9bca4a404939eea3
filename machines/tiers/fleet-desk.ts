import { outcomePayload } from '../../actors/tiers/tier-envelopes.ts';
import type { DelegationPayload } from '../../protocol/tiers/payloads.ts';
import type { TierHandler } from './task-context.ts';
import { answerCancellation, endedBeforeStart, payloadOf, replyTo } from './tier-steps.ts';

/**
 * The fleet's desk: answers a cancellation for the specialist it stopped (`cancelled` with the
 * partial results), and a delegation to a specialist the fleet does not have (`failed`,
 * `unavailable_specialist`, recoverable: the Dispatcher re-routes it).
 */
export const fleetDesk: TierHandler = async ({ envelope }, ctx) => {
  if ('target_message_id' in envelope.payload) return answerCancellation(ctx, envelope);
  if (!('task_type' in envelope.payload) || endedBeforeStart(ctx, envelope)) return [];
  const hint = payloadOf<DelegationPayload>(envelope).specialist_hint;
  return [
    replyTo(
      ctx,
      envelope,
      outcomePayload({
        status: 'failed',
        summary: `The fleet has no specialist ${hint ?? '(none named)'}.`,
        error_type: 'unavailable_specialist',
        error_detail: `Specialist ${hint ?? '(none)'} is not in the fleet (it has ${Object.keys(ctx.brains.specialists).join(', ')}): re-route the subtask.`,
        recoverable: true,
      }),
    ),
  ];
};
