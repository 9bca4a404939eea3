import type { AgentBrains } from './agent-context.ts';
import { evolutionAgent } from './evolution-agent.ts';
import { generationAgent } from './generation-agent.ts';
import { metaReviewAgent } from './meta-review-agent.ts';
import { rankingAgent } from './ranking-agent.ts';
import { reflectionAgent } from './reflection-agent.ts';

/** The offline, deterministic brain of every worker agent (the default: no key, no network). */
export const OFFLINE_BRAINS: AgentBrains = Object.freeze({
  GENERATION: generationAgent,
  REFLECTION: reflectionAgent,
  RANKING: rankingAgent,
  EVOLUTION: evolutionAgent,
  META_REVIEW: metaReviewAgent,
});
