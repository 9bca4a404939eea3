import { RuntimeError } from '../../protocol/runtime/runtime-error.ts';

/** Prices of one model in dollars per million tokens (spec 001 §3.4 `ModelPricing`). */
interface ModelPricing {
  /** Input tokens not read from the cache (cache writes included: the spec prices them as input). */
  prompt: number;
  completion: number;
  /** Input tokens read from the cache. */
  cached_prompt: number;
}

/** One Claude model the agent can run on (spec 001 §3.4 `ModelConfig`). */
interface ModelConfig {
  displayName: string;
  pricing: ModelPricing;
  notes: string;
}

/** The model ids of spec 001 §3.4, as the API and the `model` request field spell them. */
export const MODEL_IDS = ['claude-haiku-4-5', 'claude-sonnet-4-5', 'claude-opus-4-5'] as const;
type ModelId = (typeof MODEL_IDS)[number];

/** The default model when neither the request nor `PRIMARY_MODEL` names one (spec 001 §2.3). */
export const DEFAULT_MODEL: ModelId = 'claude-haiku-4-5';

/** The model registry with the prices of spec 001 §3.4. */
export const MODEL_REGISTRY: Readonly<Record<ModelId, ModelConfig>> = {
  'claude-haiku-4-5': {
    displayName: 'Claude Haiku 4.5',
    pricing: { prompt: 1.0, completion: 5.0, cached_prompt: 0.1 },
    notes: 'Default: fast and cheap, enough for tool selection and workout writing.',
  },
  'claude-sonnet-4-5': {
    displayName: 'Claude Sonnet 4.5',
    pricing: { prompt: 3.0, completion: 15.0, cached_prompt: 0.3 },
    notes: 'Stronger reasoning for complex programming requests.',
  },
  'claude-opus-4-5': {
    displayName: 'Claude Opus 4.5',
    pricing: { prompt: 5.0, completion: 25.0, cached_prompt: 0.5 },
    notes: 'Most capable and most expensive.',
  },
};

/** Whether `model` is one of the registry's ids exactly. */
function isModelId(model: string): model is ModelId {
  return (MODEL_IDS as readonly string[]).includes(model);
}

/**
 * The registry id of a model name: the id itself, or a dated snapshot of it as the API reports
 * it in responses (`claude-haiku-4-5-20251001`). Anything else is `undefined`.
 */
export function resolveModelId(model: string): ModelId | undefined {
  if (isModelId(model)) return model;
  return MODEL_IDS.find((id) => new RegExp(`^${id}-\\d{8}$`).test(model));
}

/** A model name outside the registry (a 400: the caller named it). */
export class UnknownModelError extends RuntimeError {
  override name = 'UnknownModelError';
  constructor(readonly model: string) {
    super('unknown_model', `Unknown model "${model}". Use one of: ${MODEL_IDS.join(', ')}.`, 400);
  }
}

/** The configuration of a model (a registry id or a dated snapshot of one). */
export function getModelConfig(model: string): ModelConfig {
  const id = resolveModelId(model);
  if (id === undefined) throw new UnknownModelError(model);
  return MODEL_REGISTRY[id];
}
