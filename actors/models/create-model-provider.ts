import { createAnthropicProvider } from './anthropic-provider.ts';
import type { ModelProvider } from './model-provider.ts';
import { createOfflineProvider } from '../trainer/offline-model/offline-provider.ts';

export interface ModelProviderConfig {
  /** `ANTHROPIC_API_KEY`: Claude when set, the offline model otherwise. */
  anthropicApiKey?: string | undefined;
  /** `ANTHROPIC_BASE_URL`. */
  anthropicBaseUrl?: string | undefined;
  maxRetries?: number;
  timeoutMs?: number;
}

/**
 * The model the agent runs on (DESIGN, Configuration): Claude through the Anthropic SDK when an
 * API key is configured, else the offline model, which needs no network.
 *
 * @example
 * const model = createModelProvider({ anthropicApiKey: config.anthropicApiKey, anthropicBaseUrl: config.anthropicBaseUrl });
 */
export function createModelProvider(config: ModelProviderConfig = {}): ModelProvider {
  if (!config.anthropicApiKey) return createOfflineProvider();
  return createAnthropicProvider({
    apiKey: config.anthropicApiKey,
    baseURL: config.anthropicBaseUrl,
    ...(config.maxRetries === undefined ? {} : { maxRetries: config.maxRetries }),
    ...(config.timeoutMs === undefined ? {} : { timeoutMs: config.timeoutMs }),
  });
}
