import type { DataSourceName } from '../../../protocol/trainer/data-source.ts';
import type { InitializerResponse } from '../../../protocol/trainer/initializer-response.ts';
import type { KnowledgeState } from './initializer-knowledge.ts';

/** What a selector decides from (spec 001 §5.2 `runInitializerAgent(sessionId, userInput, existingKnowledge)`). */
export interface SelectionInput {
  userMessage: string;
  knowledge: KnowledgeState;
}

/** A selection with the tokens it took, when a model made it. */
export interface SelectionOutcome {
  response: InitializerResponse;
  usage?: { prompt: number; completion: number };
}

/**
 * Chooses the data sources for the main agent's turn (spec 001 §5): GPT-4o-mini with structured
 * output, or the deterministic §5.5 rules. Either may reject; the initializer turns that into an
 * error report, never into a failed turn.
 */
export interface KnowledgeSelector {
  readonly kind: 'openai' | 'rules';
  select(input: SelectionInput, signal?: AbortSignal): Promise<SelectionOutcome>;
}

/** Display form of the loaded knowledge for prompts and reasoning: "workout_history (last 14 days)". */
export function describeKnowledge(state: KnowledgeState): string[] {
  return state.existing.map(({ source, days_back }) =>
    days_back === null ? source : `${source} (last ${days_back} days)`,
  );
}

/** The stale sources, for prompts. */
export const describeStale = (stale: readonly DataSourceName[]) => (stale.length === 0 ? 'none' : stale.join(', '));
