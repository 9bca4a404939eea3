import { HypothesisContentSchema, type ReviewContent } from '../../../protocol/coscientist/memory-content.ts';
import { resolveParts } from '../knowledge/knowledge-base.ts';
import { overallScore, scoreCriteria } from '../rules/review-criteria.ts';
import type { AgentBrain } from './agent-context.ts';

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
  context.signal.throwIfAborted();
  const review: ReviewContent = {
    hypothesis_id: hypothesisId,
    scores,
    overall: overallScore(scores),
    iteration: hypothesis.iteration,
  };
  const written = await context.memory.create('REFLECTION', 'review', review, {
    entryId: `rev-${hypothesisId}`,
    dependencies: [entry.entry_id],
  });
  return { entry_ids: [written.entry_id] };
};
