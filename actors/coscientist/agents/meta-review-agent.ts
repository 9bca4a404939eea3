import { INITIAL_ELO } from '../rules/elo.ts';
import { metaReview } from '../rules/meta-review.ts';
import type { AgentBrain } from './agent-context.ts';
import { allHypotheses, latestFeedback, readRanking, reviewsByHypothesis } from './memory-reads.ts';

/**
 * META_REVIEW, offline: reads every review and the ranking, finds the recurring weakness and the
 * parts that keep scoring low, and writes feedback per agent type and a research overview.
 */
export const metaReviewAgent: AgentBrain = async (input, context) => {
  const iteration = Number(input.iteration);
  const reviews = await reviewsByHypothesis(context.memory);
  const { ranking } = await readRanking(context.memory);
  const consumable = new Set((await context.memory.consumable('hypothesis')).map((e) => e.entry_id));
  const reviewed = (await allHypotheses(context.memory))
    .filter((h) => consumable.has(h.entry.entry_id) && reviews.has(h.entry.entry_id))
    .map((h) => ({
      id: h.entry.entry_id,
      text: h.content.text,
      components: h.content.components,
      review: reviews.get(h.entry.entry_id)!,
      elo: ranking.ratings[h.entry.entry_id] ?? INITIAL_ELO,
    }));
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
