import { z } from 'zod';
import { FeedbackContentSchema, type FeedbackContent } from '../../../../protocol/coscientist/memory-content.ts';
import { CriterionSchema } from '../../../../protocol/coscientist/payloads.ts';
import { metaReview } from '../../rules/meta-review.ts';
import type { AgentBrain } from '../agent-context.ts';
import { latestFeedback, reviewedHypotheses } from '../memory-reads.ts';
import { askClaude, knowledgeOptions, type ClaudeAccess } from './ask-claude.ts';

/** `write_meta_review`'s input: the recurring weakness, the parts to avoid, feedback per agent, the overview. */
export const MetaReviewAnswerSchema = z.strictObject({
  weak_criterion: CriterionSchema,
  avoid: z.array(z.string()),
  feedback: z.strictObject({
    GENERATION: z.string().min(1),
    REFLECTION: z.string().min(1),
    RANKING: z.string().min(1),
    EVOLUTION: z.string().min(1),
  }),
  overview: z.string().min(1),
});

const SYSTEM = [
  'You are the META_REVIEW agent of an AI co-scientist (spec 003). From every review and the Elo ranking, find the',
  'recurring weakness (the criterion that scores lowest across reviews) and the knowledge parts (ids) that keep',
  'scoring low, write one actionable feedback per agent (GENERATION, REFLECTION, RANKING, EVOLUTION) and a short',
  'research overview of the leading hypotheses. Answer only by calling write_meta_review.',
].join(' ');

/**
 * META_REVIEW on Claude: one forced `write_meta_review` call over the reviewed hypotheses, the
 * parts to avoid checked against the knowledge base. Each agent's feedback keeps the offline
 * incorporation strategy, and the overview's figures (top by Elo, mean review score of the new
 * hypotheses) are computed, not asked; every entry is checked by its memory schema.
 *
 * @example
 * const brains = { ...OFFLINE_BRAINS, META_REVIEW: claudeMetaReview(access) };
 */
export function claudeMetaReview(access: ClaudeAccess): AgentBrain {
  return async (input, context) => {
    const iteration = Number(input.iteration);
    const reviewed = await reviewedHypotheses(context.memory);
    const previous = await latestFeedback(context.memory, 'GENERATION');
    const computed = metaReview({ reviewed, iteration, previousAvoid: previous?.avoid ?? [] });
    const knowledge = knowledgeOptions(context.knowledge);
    const partIds = new Set(
      [...knowledge.interventions, ...knowledge.targets, ...knowledge.mechanisms].map((p) => p.id),
    );
    const { value } = await askClaude(
      access,
      context,
      {
        system: SYSTEM,
        input: {
          iteration,
          reviewed: reviewed.map((r) => ({
            id: r.id,
            text: r.text,
            components: r.components,
            scores: r.review.scores,
            elo: r.elo,
          })),
          previously_avoided: previous?.avoid ?? [],
          knowledge,
        },
        tool: {
          name: 'write_meta_review',
          description: 'Submit the weakness, parts to avoid, feedback and overview.',
          schema: MetaReviewAnswerSchema,
        },
      },
      (answer) => answer.avoid.filter((id) => !partIds.has(id)).map((id) => `"${id}" to avoid is not a knowledge part`),
    );
    const avoid = [...new Set([...(previous?.avoid ?? []), ...value.avoid])].sort();
    const feedback: FeedbackContent[] = computed.feedback.map((f) =>
      FeedbackContentSchema.parse({
        ...f,
        text: value.feedback[f.target_agent as keyof typeof value.feedback] ?? f.text,
        weak_criterion: value.weak_criterion,
        avoid: f.target_agent === 'GENERATION' || f.target_agent === 'EVOLUTION' ? avoid : [],
      }),
    );
    const dependencies = reviewed.map((r) => `rev-${r.id}`);
    context.signal.throwIfAborted();
    const written = await Promise.all(
      feedback.map((f) =>
        context.memory.create('META_REVIEW', 'feedback', f, {
          entryId: `i${iteration}-${f.target_agent}`,
          dependencies,
        }),
      ),
    );
    const overview = { ...computed.overview, text: value.overview };
    const summary = await context.memory.create('META_REVIEW', 'overview', overview, {
      entryId: `i${iteration}`,
      dependencies,
    });
    return { entry_ids: [...written.map((e) => e.entry_id), summary.entry_id] };
  };
}
