import './with-resolvers.ts';
import * as restate from '@restatedev/restate-sdk';

/** A brain or tool as the Restate host calls it: JSON in, JSON out (its result is journaled). */
export type RestateBrain = (input: unknown) => Promise<unknown>;

/** One brain or tool call of a run: the agent whose brain answers, the request's id, its input. */
export interface BrainCall {
  agent: string;
  /** The id of the envelope the agent works on: the journal entry's name, and the ingress idempotency key. */
  id: string;
  input: unknown;
}

/**
 * Calls `brain` as one journaled side effect of the invocation `ctx` runs (`ctx.run`): once it
 * answered, a replay of the invocation (its worker killed, Restate restarted) reads the answer
 * from Restate's journal and never calls the brain again. A call cut off before it answered is
 * made again (at least once, as for any work in flight).
 *
 * @example
 * const plan = await journaledCall(ctx, { agent: 'COACH', id: envelope.message_id, input }, coachBrain);
 */
export function journaledCall(ctx: restate.Context, call: BrainCall, brain: RestateBrain): Promise<unknown> {
  return ctx.run(`${call.agent} ${call.id}`, () => brain(call.input));
}

/**
 * Sends a call's answer back to the object that asked (`<host>/<key>/answer`): one journaled
 * send of the invocation that made the call, so a replay sends it once.
 *
 * @example
 * answerTo(ctx, 'nutrition-host', call.run, call.id, await journaledCall(ctx, call, brain));
 */
export function answerTo(ctx: restate.Context, host: string, key: string, id: string, answer: unknown): void {
  ctx.genericSend({
    service: host,
    method: 'answer',
    key,
    parameter: { id, answer },
    inputSerde: restate.serde.json,
  });
}
