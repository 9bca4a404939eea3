import type { TokenUsage } from '../../protocol/runtime/token-usage.ts';
import { costOfTokens, tokenUsageOf } from './model-cost.ts';
import type { ModelMessage, ModelProvider, ModelToolUseBlock } from './model-provider.ts';
import { resolveModelId } from './model-registry.ts';

/** The tool the model chose (spec 001 §3.3 `toolCall`). */
export interface ModelToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** What the loop reads from one response (spec 001 §3.3 `LLMResponse`), with its cost. */
export interface LlmResponse {
  /** The first `tool_use` block; undefined when the response has none (the loop then stops, §3.2). */
  toolCall: ModelToolCall | undefined;
  usage: TokenUsage;
  costCents: number;
  model: string;
  stopReason: string | null;
  /** Any text the model wrote beside the tool call (normally none: tool use is forced). */
  text: string;
}

/** The first `tool_use` block of a response. */
function firstToolUse(message: ModelMessage): ModelToolUseBlock | undefined {
  return message.content.find((block): block is ModelToolUseBlock => block.type === 'tool_use');
}

/**
 * Reads a response the way spec 001 §3.3 does, and prices it (§11.1): by the response's model
 * when the registry knows it (dated snapshots included), else by the requested one. Offline
 * responses (`billed: false`) cost nothing.
 */
export function readModelResponse(
  message: ModelMessage,
  options: { requestedModel: string; provider: Pick<ModelProvider, 'billed'> },
): LlmResponse {
  const toolUse = firstToolUse(message);
  const usage = tokenUsageOf(message.usage);
  const pricedAs = resolveModelId(message.model) ?? options.requestedModel;
  return {
    toolCall: toolUse && { id: toolUse.id, name: toolUse.name, arguments: toolUse.input },
    usage,
    costCents: options.provider.billed ? costOfTokens(pricedAs, usage) : 0,
    model: message.model,
    stopReason: message.stop_reason,
    text: message.content
      .flatMap((block) => (block.type === 'text' ? [block.text] : []))
      .join('\n')
      .trim(),
  };
}
