import { ModelError } from '../../models/model-error.ts';
import type { ModelMessage, ModelProvider, ModelRequest } from '../../models/model-provider.ts';
import { createPromptCacheSimulator, type PromptCacheSimulator } from '../../models/prompt-cache-simulator.ts';
import { estimateTokens } from '../../models/token-estimate.ts';
import { readConversation } from './conversation-view.ts';
import { decideNextTool } from './offline-policy.ts';

interface OfflineProviderOptions {
  /** Shared with other providers to simulate one cache; a fresh one per provider by default. */
  cache?: PromptCacheSimulator;
}

/**
 * The model without an API key (DESIGN "Brains are pluggable"): the offline policy behind the
 * same interface as Claude. Each call answers one `tool_use` decided from the request alone,
 * with token estimates (spec 001 §11.4) in `usage`, cache reads simulated the way the API counts
 * them, and no cost (`billed: false`). Ids derive from the prompt's fingerprint, so replays are identical.
 *
 * @example
 * const offline = createOfflineProvider();
 * const message = await offline.call({ model: 'claude-haiku-4-5', ...context });
 */
export function createOfflineProvider(options: OfflineProviderOptions = {}): ModelProvider {
  const cache = options.cache ?? createPromptCacheSimulator();
  return {
    kind: 'offline',
    billed: false,
    async call(request: ModelRequest, signal?: AbortSignal): Promise<ModelMessage> {
      if (signal?.aborted) throw new ModelError('aborted', 'The model call was aborted.', 'offline');
      const decision = decideNextTool(readConversation(request));
      const { usage, fingerprint: digest } = cache.read(request);
      return {
        id: `msg_offline_${digest.slice(0, 24)}`,
        type: 'message',
        role: 'assistant',
        model: request.model,
        content: [
          { type: 'tool_use', id: `toolu_offline_${digest.slice(24, 48)}`, name: decision.name, input: decision.input },
        ],
        stop_reason: 'tool_use',
        usage: {
          ...usage,
          output_tokens: estimateTokens(JSON.stringify({ name: decision.name, input: decision.input })),
        },
      };
    },
  };
}
