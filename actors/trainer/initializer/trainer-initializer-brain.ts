import { fromPromise } from 'xstate';
import { ValidationError, toErrorIssues } from '../../../protocol/runtime/runtime-error.ts';
import type { AgentBrainInput } from '../../../protocol/runtime/agent-report.ts';
import { DeliveredMessageSchema } from '../../../protocol/runtime/routing.ts';
import {
  TrainerEnvelopeSchema,
  type ContextLoaded,
  type TrainerEnvelopeOf,
} from '../../../protocol/trainer/trainer-envelope.ts';

/** Chooses and loads the data sources a message needs, appending them as knowledge (spec 001 §5.2). */
export interface ContextInitializer {
  initialize(request: {
    sessionId: string;
    userId: string;
    message: string;
    signal?: AbortSignal;
  }): Promise<ContextLoaded>;
}

/**
 * The INITIALIZER worker's brain: it answers a `context_request` with a `context_loaded`
 * envelope naming the sources it appended. An envelope of any other kind is a validation failure;
 * a failing initializer rejects, and the loop goes on without new context (§12.3).
 */
export function createInitializerBrain(initializer: ContextInitializer) {
  return fromPromise<TrainerEnvelopeOf<'context_loaded'>, AgentBrainInput>(async ({ input, signal }) => {
    const delivered = DeliveredMessageSchema.safeParse(input.input);
    const envelope = delivered.success ? TrainerEnvelopeSchema.safeParse(delivered.data.envelope) : undefined;
    if (!envelope?.success || envelope.data.data_type !== 'context_request') {
      const issues =
        envelope && !envelope.success
          ? toErrorIssues(envelope.error.issues)
          : [{ path: 'data_type', message: 'Expected context_request' }];
      throw new ValidationError('The INITIALIZER only answers context_request envelopes.', issues);
    }
    const request = envelope.data;
    const loaded = await initializer.initialize({
      sessionId: request.session_id,
      userId: request.payload.user_id,
      message: request.payload.message,
      signal,
    });
    return {
      message_id: `${request.message_id}:loaded`,
      from_agent: 'INITIALIZER',
      to_agent: 'TRAINER',
      data_type: 'context_loaded',
      session_id: request.session_id,
      payload: loaded,
    };
  });
}
