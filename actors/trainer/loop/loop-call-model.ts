import { fromPromise } from 'xstate';
import { elapsedMs, type LoopDeps, type LoopToolCall } from './loop-deps.ts';
import type { ModelRequest } from '../../models/model-provider.ts';
import { readModelResponse } from '../../models/model-response.ts';
import { PromptLog } from './loop-prompt-log.ts';

/** One model call of the loop. */
export interface CallModelInput {
  sessionId: string;
  userId: string;
  model: string;
  iteration: number;
}

/** What the loop reads from the response: the tool call, if the model made one (§3.3). */
export interface CallModelOutput {
  toolCall: LoopToolCall | undefined;
  costCents: number;
  cachedTokens: number;
  promptTokens: number;
}

/**
 * One iteration's model call (spec 001 §3.1, §3.3): builds the context from the event stream,
 * logs the `llm_request` with its token estimate (§11.4; the prompt as what changed since the
 * session's previous request, `PromptLog`), calls the model (tool use forced by the
 * provider) and logs the `llm_response` with its usage and cost (§11.1). A failed call rejects
 * with the provider's error; the loop logs it and ends the turn. Stopping the actor aborts the call.
 */
export function createCallModelLogic(deps: Pick<LoopDeps, 'events' | 'context' | 'model' | 'log'>) {
  const prompts = new PromptLog();
  return fromPromise<CallModelOutput, CallModelInput>(async ({ input, signal }) => {
    const { sessionId, userId, model } = input;
    const context = await deps.context.build(sessionId, userId);
    const request: ModelRequest = { model, system: context.system, tools: context.tools, messages: context.messages };
    const entry = prompts.entryFor(model, context);
    // Recorded before the call, written with the turn's next write (its answer waits for it: `durable`).
    await deps.events.recordEvents(sessionId, [{ type: 'llm_request', data: entry.data }]);
    entry.logged();
    deps.log?.(sessionId, { kind: 'llm_request', model, estimatedTokens: entry.data.estimated_tokens });
    const started = performance.now();
    const message = await deps.model.call(request, signal);
    const durationMs = elapsedMs(started);
    const response = readModelResponse(message, { requestedModel: model, provider: deps.model });
    await deps.events.recordEvents(sessionId, [
      {
        type: 'llm_response',
        data: { raw_response: { ...message }, tokens: response.usage, cost_cents: response.costCents },
        durationMs,
      },
    ]);
    deps.log?.(sessionId, {
      kind: 'llm_response',
      text: response.text,
      totalTokens: response.usage.total,
      cachedTokens: response.usage.cached,
      costCents: response.costCents,
      durationMs,
    });
    return {
      toolCall: response.toolCall,
      costCents: response.costCents,
      cachedTokens: response.usage.cached,
      promptTokens: response.usage.prompt,
    };
  });
}
