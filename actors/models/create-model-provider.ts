// TEMPORARY compatibility shim for server/trainer/open-trainer.ts, which the lead is rewriting:
// delete this file once it calls `trainerModelFor(openModelBackends(config))`. It is the model
// layer's one import of a system folder, and decides nothing itself.
// eslint-disable-next-line no-restricted-imports -- the temporary shim above
import { trainerModelFor } from '../trainer/loop/trainer-model-for.ts';
import { openModelBackends, type ModelClientOptions } from './model-backends.ts';
import type { ModelProvider } from './model-provider.ts';
import { DEFAULT_MODEL } from './model-registry.ts';

export interface ModelProviderConfig extends ModelClientOptions {
  anthropicApiKey?: string | undefined;
  anthropicBaseUrl?: string | undefined;
}

/** @deprecated Use `trainerModelFor(openModelBackends(config))` (actors/trainer/loop/trainer-model-for.ts). */
export function createModelProvider(config: ModelProviderConfig = {}): ModelProvider {
  const { maxRetries, timeoutMs, ...keys } = config;
  return trainerModelFor(
    openModelBackends(
      { ...keys, primaryModel: DEFAULT_MODEL },
      { ...(maxRetries === undefined ? {} : { maxRetries }), ...(timeoutMs === undefined ? {} : { timeoutMs }) },
    ),
  );
}
