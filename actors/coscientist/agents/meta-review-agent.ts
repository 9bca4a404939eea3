import { metaReview } from '../rules/meta-review.ts';
import type { AgentBrain } from './agent-context.ts';
import { latestFeedback, reviewedHypotheses } from './memory-reads.ts';

/**
 * META_REVIEW, offline: reads every review and the ranking, finds the recurring weakness and the
 * parts that keep scoring low, and writes feedback per agent type and a research overview.
 */
export const metaReviewAgent: AgentBrain = async (input, context) => {
  const iteration = Number(input.iteration);
  const reviewed = await reviewedHypotheses(context.memory);
  const previous = await latestFeedback(context.memory, 'GENERATION');
  const { feedback, overview } = metaReview({ reviewed, iteration, previousAvoid: previous?.avoid ?? [] });
  const dependencies = reviewed.map((r) => `rev-${r.id}`);
  const written = await Promise.all(
    feedback.map((f) =>
      context.memory.create('META_REVIEW', 'feedback', f, { entryId: `i${iteration}-${f.target_agent}`, dependencies }),
    ),
  );
  const summary = await context.memory.create('META_REVIEW', 'overview', overview, {
    entryId: `i${iteration}`,
    dependencies,
  });
  return { entry_ids: [...written.map((e) => e.entry_id), summary.entry_id] };
};
