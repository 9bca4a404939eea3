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
 * The virtual object of a system's runs, one object per run keyed by its journal partition
 * (Restate runs one exclusive handler per key at a time: a run has a single writer). `call`
 * makes one brain or tool call as a journaled side effect; sent through the ingress with the
 * call's `id` as idempotency key, a call repeated by a restarted caller gets the first answer.
 *
 * @example
 * const object = runObject('nutrition', { COACH: async (input) => coach(input) });
 * http2.createServer(createEndpointHandler({ services: [object] })).listen(9080);
 */
export function runObject(system: string, brains: Readonly<Record<string, RestateBrain>>) {
  return restate.object({
    name: `${system}-run`,
    handlers: {
      call: async (ctx: restate.ObjectContext, call: BrainCall) => {
        const brain = brains[call.agent];
        if (!brain)
          throw new restate.TerminalError(
            `${system} has no brain for ${call.agent}: name one of ${Object.keys(brains).join(', ')}.`,
          );
        return journaledCall(ctx, call, brain);
      },
    },
  });
}

/** A system's run object, as its module hands it to the service processes. */
export type RunObject = ReturnType<typeof runObject>;
