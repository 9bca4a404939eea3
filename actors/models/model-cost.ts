import type { TokenUsage } from '../../protocol/runtime/token-usage.ts';
import { getModelConfig } from './model-registry.ts';
import type { ModelUsage } from './model-provider.ts';

/** The cache figures of one response, as the Messages API names them. */
interface CacheInfo {
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

const PER_MILLION = 1_000_000;

function assertCount(name: string, value: number): void {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a finite count >= 0, got ${value}.`);
}

/**
 * The cost of one response in cents (spec 001 §11.1). `promptTokens` counts every input token,
 * cache reads included; the cache reads are then taken out of the prompt price and charged at
 * the cached price. The spec prices no cache write, so cache writes cost the prompt price.
 *
 * @example
 * calculateCostCents('claude-haiku-4-5', 3000, 200, { cache_read_input_tokens: 2800 }); // 0.148
 */
export function calculateCostCents(
  model: string,
  promptTokens: number,
  completionTokens: number,
  cacheInfo: CacheInfo = {},
): number {
  const { pricing } = getModelConfig(model);
  assertCount('promptTokens', promptTokens);
  assertCount('completionTokens', completionTokens);
  let promptCost = (promptTokens / PER_MILLION) * pricing.prompt;
  const completionCost = (completionTokens / PER_MILLION) * pricing.completion;
  let totalCost = promptCost + completionCost;
  const cached = cacheInfo.cache_read_input_tokens;
  if (cached !== undefined && cached !== null) {
    assertCount('cache_read_input_tokens', cached);
    if (cached > promptTokens) {
      throw new RangeError(`cache_read_input_tokens (${cached}) cannot exceed promptTokens (${promptTokens}).`);
    }
    const cachedCost = (cached / PER_MILLION) * pricing.cached_prompt;
    promptCost = ((promptTokens - cached) / PER_MILLION) * pricing.prompt;
    totalCost = promptCost + completionCost + cachedCost;
  }
  return totalCost * 100;
}

/**
 * The `TokenUsage` of a response (spec 001 §7.3): `prompt` is the input not read from the cache
 * (uncached input plus cache writes), so that `cached / (prompt + cached)` is the share of the
 * input served from the cache (§11.2) and `total` is everything read and written.
 */
export function tokenUsageOf(usage: ModelUsage): TokenUsage {
  const cached = usage.cache_read_input_tokens;
  const cacheWrite = usage.cache_creation_input_tokens;
  const prompt = usage.input_tokens + cacheWrite;
  return {
    prompt,
    completion: usage.output_tokens,
    cached,
    cache_write: cacheWrite,
    total: prompt + cached + usage.output_tokens,
  };
}

/** The cost in cents of a `TokenUsage` on a model (spec 001 §11.1). */
export function costOfTokens(model: string, tokens: TokenUsage): number {
  return calculateCostCents(model, tokens.prompt + tokens.cached, tokens.completion, {
    cache_read_input_tokens: tokens.cached,
    cache_creation_input_tokens: tokens.cache_write,
  });
}
