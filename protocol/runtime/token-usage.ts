import { z } from 'zod';

const tokens = z.int().min(0);

/**
 * Token counts of one model response (spec 001 §7.3). `cached` counts cache-read input tokens,
 * `cache_write` cache-creation tokens; `total` is what the session's `total_tokens` sums.
 */
export const TokenUsageSchema = z.strictObject({
  prompt: tokens,
  completion: tokens,
  cached: tokens,
  cache_write: tokens,
  total: tokens,
});
export type TokenUsage = z.infer<typeof TokenUsageSchema>;
