import { setTimeout as delay } from 'node:timers/promises';
import { fromPromise } from 'xstate';
import type { AgentBrainInput } from '../../protocol/runtime/agent-report.ts';
import type { NutritionAgent } from '../../protocol/nutrition/agents.ts';
import type { EnvelopeOf, NutritionEnvelope } from '../../protocol/nutrition/envelope.ts';
import type { NutritionDataType, PayloadOf } from '../../protocol/nutrition/payloads.ts';
import type { DeliveredMessage } from '../../protocol/runtime/routing.ts';
import { makeEnvelope } from './envelope-factory.ts';
import type { WorkContext } from './work-context.ts';

/** What a nutrition brain returns: the envelopes it sends, and a memo for the orchestrator. */
export interface BrainOutput {
  envelopes: unknown[];
  memo?: unknown;
}

/** One piece of work: the envelope delivered to the agent, and the context the orchestrator attached. */
export interface BrainRequest {
  envelope: NutritionEnvelope;
  context: WorkContext;
}

/** Builds an envelope from this agent, in the request's run (or `runId`), with an id derived from the request. */
export type Reply = <D extends NutritionDataType>(
  to: NutritionAgent,
  dataType: D,
  payload: PayloadOf<D>,
  runId?: string,
) => EnvelopeOf<D>;

export type BrainHandler = (
  request: BrainRequest,
  tools: { reply: Reply; signal: AbortSignal },
) => BrainOutput | Promise<BrainOutput>;

/**
 * Wraps a handler into the promise logic a nutrition agent's worker runs. Output ids derive from
 * the request's message id, so work redone after a restart yields the same messages. A
 * `medical_context` only informs its receiver (§5): it is acknowledged without work.
 *
 * @example
 * const coachBrain = nutritionBrain('COACH', ({ envelope }, { reply }) => ({ envelopes: [reply('USER', 'training_program', plan(envelope))] }));
 */
export function nutritionBrain(agent: NutritionAgent, handle: BrainHandler, options: { latencyMs?: number } = {}) {
  return fromPromise<BrainOutput, AgentBrainInput>(async ({ input, signal }) => {
    const message = input.input as DeliveredMessage;
    const envelope = message.envelope as NutritionEnvelope;
    if (envelope.data_type === 'medical_context') return { envelopes: [] };
    const started = performance.now();
    let index = 0;
    const reply: Reply = (to, dataType, payload, runId = envelope.pipeline_run_id) =>
      makeEnvelope({
        from: agent,
        to,
        dataType,
        payload: payload as never,
        runId,
        idSeed: [envelope.message_id, agent, index++],
      }) as never;
    const output = await handle({ envelope, context: (message.context ?? {}) as WorkContext }, { reply, signal });
    // Simulated model latency (benchmarks, demos): the answer takes at least `latencyMs` in all;
    // cancelling the work cancels the wait.
    const remaining = (options.latencyMs ?? 0) - (performance.now() - started);
    if (remaining > 0) await delay(remaining, undefined, { signal });
    return output;
  });
}
