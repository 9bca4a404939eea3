import { HypothesisContentSchema, type ReviewContent } from '../../../protocol/coscientist/memory-content.ts';
import { resolveParts } from '../knowledge/knowledge-base.ts';
import { overallScore, scoreCriteria } from '../rules/review-criteria.ts';
import type { ContextEntry } from '../../../protocol/coscientist/context-entry.ts';
import type { AgentBrain, AgentContext } from './agent-context.ts';

/** How long REFLECTION may hold the literature-search tool. */
const LITERATURE_LEASE_MS = 10_000;

/**
 * REFLECTION, offline: reads one hypothesis, looks its parts up in the literature (the shared
 * `literature_search` tool, under its lock), scores novelty, plausibility and testability by
 * the documented criteria with a reason each, and writes the review.
 */
export const reflectionAgent: AgentBrain = async (input, context) => {
  const hypothesisId = String(input.hypothesis_id);
  const entry = await context.memory.get('hypothesis', hypothesisId);
  if (!entry) throw new Error(`Hypothesis ${hypothesisId} is not in context memory: review only written hypotheses.`);
  const hypothesis = HypothesisContentSchema.parse(entry.content);
  const lease = await context.locks.acquire('literature_search', context.taskId, {
    leaseMs: LITERATURE_LEASE_MS,
    signal: context.signal,
  });
  let scores;
  try {
    scores = scoreCriteria(context.knowledge, resolveParts(context.knowledge, hypothesis.components));
    await context.pause();
  } finally {
    lease.release();
  }
  return writeReview(context, entry, hypothesis.iteration, scores);
};

/** Writes REFLECTION's review of `hypothesis` (unless the task was cancelled): its entry, depending on the hypothesis. */
export async function writeReview(
  context: AgentContext,
  hypothesis: ContextEntry,
  iteration: number,
  scores: ReviewContent['scores'],
): Promise<{ entry_ids: string[] }> {
  context.signal.throwIfAborted();
  const review: ReviewContent = {
    hypothesis_id: hypothesis.entry_id,
    scores,
    overall: overallScore(scores),
    iteration,
  };
  const written = await context.memory.create('REFLECTION', 'review', review, {
    entryId: `rev-${hypothesis.entry_id}`,
    dependencies: [hypothesis.entry_id],
  });
  return { entry_ids: [written.entry_id] };
}
