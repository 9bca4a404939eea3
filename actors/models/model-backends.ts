import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { ModelSettings } from './model-settings.ts';

/** A model-backed backend a caller may run on. */
export type ModelBackendKind = 'anthropic' | 'openai';

/** Claude: the shared Anthropic client and the configured model (`PRIMARY_MODEL`). */
export interface AnthropicAccess {
  readonly client: Anthropic;
  readonly model: string;
}

/** OpenAI: the shared client. No OpenAI model is configured: the caller names its own (spec 001 §5.1: `gpt-4o-mini`). */
export interface OpenAiAccess {
  readonly client: OpenAI;
}

/**
 * What a caller can run on: always offline, and model-backed where it gives a builder. A builder
 * is called only when its backend is chosen, so an unused client is never made.
 */
export interface BackendChoice<T> {
  offline: () => T;
  anthropic?: (access: AnthropicAccess) => T;
  openai?: (access: OpenAiAccess) => T;
}

/** Options of the SDK clients (tests set `maxRetries: 0`); the SDKs' defaults otherwise. */
export interface ModelClientOptions {
  maxRetries?: number;
  timeoutMs?: number;
}

/** The model backends of one configuration: the one place that picks model-backed or offline. */
export interface ModelBackends {
  /** The backends whose key is set, in the order {@link ModelBackends.choose} tries them. */
  readonly configured: readonly ModelBackendKind[];
  /**
   * The first configured backend the caller supports, in this order: `anthropic` (when
   * `ANTHROPIC_API_KEY` is set), then `openai` (when `OPENAI_API_KEY` is set); `offline()` when
   * none is. A caller without an `anthropic` builder runs offline on an Anthropic-only setup.
   */
  choose<T>(choice: BackendChoice<T>): T;
  /** For the start-up log: `Claude claude-haiku-4-5`, `Claude claude-haiku-4-5 + OpenAI`, `offline`. */
  describe(): string;
}

/** One client per SDK, made on first use and shared by every caller. */
function lazily<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

const clientOptions = (options: ModelClientOptions) => ({
  ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
  ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
});

/**
 * Opens the model backends of a configuration (DESIGN "Brains are pluggable"): a key set means
 * model-backed, no key means offline, decided here and nowhere else. Pass the server's `Config`
 * as it is.
 *
 * @example
 * const backends = openModelBackends(config);
 * const model = backends.choose({
 *   offline: () => createOfflineProvider(),
 *   anthropic: ({ client }) => createAnthropicProvider({ client }),
 * });
 * console.log(`Models: ${backends.describe()}`);
 */
export function openModelBackends(settings: ModelSettings, options: ModelClientOptions = {}): ModelBackends {
  const { anthropicApiKey, openaiApiKey } = settings;
  const anthropic =
    anthropicApiKey &&
    lazily(
      () =>
        new Anthropic({
          apiKey: anthropicApiKey,
          // null, not undefined: undefined would let the SDK read ANTHROPIC_BASE_URL behind our back.
          baseURL: settings.anthropicBaseUrl || null,
          ...clientOptions(options),
        }),
    );
  const openai =
    openaiApiKey &&
    lazily(
      () =>
        new OpenAI({
          apiKey: openaiApiKey,
          // null, not undefined: undefined would let the SDK read OPENAI_BASE_URL behind our back.
          baseURL: settings.openaiBaseUrl || null,
          ...clientOptions(options),
        }),
    );
  const configured: ModelBackendKind[] = [
    ...(anthropic ? ['anthropic' as const] : []),
    ...(openai ? ['openai' as const] : []),
  ];
  return {
    configured,
    choose(choice) {
      if (anthropic && choice.anthropic) return choice.anthropic({ client: anthropic(), model: settings.primaryModel });
      if (openai && choice.openai) return choice.openai({ client: openai() });
      return choice.offline();
    },
    describe() {
      const names = [...(anthropic ? [`Claude ${settings.primaryModel}`] : []), ...(openai ? ['OpenAI'] : [])];
      return names.length === 0 ? 'offline' : names.join(' + ');
    },
  };
}
