import { createAnthropicProvider } from '../../../models/anthropic-provider.ts';
import type { AnthropicAccess } from '../../../models/model-backends.ts';
import { getModelConfig } from '../../../models/model-registry.ts';
import type { AgentBrains } from '../agent-context.ts';
import { claudeEvolution } from './claude-evolution.ts';
import { claudeGeneration } from './claude-generation.ts';
import { claudeMetaReview } from './claude-meta-review.ts';
import { claudeRanking } from './claude-ranking.ts';
import { claudeReflection } from './claude-reflection.ts';

/**
 * Every co-scientist agent on Claude through the model layer (one provider, the configured
 * model): GENERATION, REFLECTION, RANKING's debates, EVOLUTION and META_REVIEW each make forced
 * tool calls validated by their zod schemas. Hypotheses are composed of the domain's knowledge
 * parts (by id), so reviews, debates and feedback stay checkable.
 *
 * @example
 * const brains = backends.choose({ offline: () => OFFLINE_BRAINS, anthropic: (access) => claudeBrains(access) });
 */
export function claudeBrains(access: AnthropicAccess): AgentBrains {
  getModelConfig(access.model); // an unknown PRIMARY_MODEL fails at start-up, naming the known ones
  const claude = { provider: createAnthropicProvider({ client: access.client }), model: access.model };
  return Object.freeze({
    GENERATION: claudeGeneration(claude),
    REFLECTION: claudeReflection(claude),
    RANKING: claudeRanking(claude),
    EVOLUTION: claudeEvolution(claude),
    META_REVIEW: claudeMetaReview(claude),
  });
}
