import { createAnthropicProvider } from '../../models/anthropic-provider.ts';
import type { ModelBackends } from '../../models/model-backends.ts';
import type { ModelProvider } from '../../models/model-provider.ts';
import { createOfflineProvider } from '../offline-model/offline-provider.ts';

/**
 * The model the trainer's loop runs on (spec 001 §3.3), as the model layer chooses it: Claude
 * when `ANTHROPIC_API_KEY` is set, else the offline policy, which needs no network. The trainer
 * has no OpenAI loop, so an OpenAI key alone leaves it offline.
 *
 * @example
 * const model = trainerModelFor(openModelBackends(config));
 */
export function trainerModelFor(backends: ModelBackends): ModelProvider {
  return backends.choose<ModelProvider>({
    offline: () => createOfflineProvider(),
    anthropic: ({ client }) => createAnthropicProvider({ client }),
  });
}
