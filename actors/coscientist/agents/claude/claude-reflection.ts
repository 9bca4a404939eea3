import { z } from 'zod';
import { CriterionScoreSchema, HypothesisContentSchema } from '../../../../protocol/coscientist/memory-content.ts';
import { CriterionSchema } from '../../../../protocol/coscientist/payloads.ts';
import { resolveParts } from '../../knowledge/knowledge-base.ts';
import type { AgentBrain } from '../agent-context.ts';
import { latestFeedback } from '../memory-reads.ts';
import { writeReview } from '../reflection-agent.ts';
import { askClaude, type ClaudeAccess } from './ask-claude.ts';

/** `submit_review`'s input: a 0-10 score with its reason for each criterion. */
export const ReviewAnswerSchema = z.strictObject({ scores: z.array(CriterionScoreSchema).length(3) });

const SYSTEM = [
  'You are the REFLECTION agent of an AI co-scientist (spec 003). Review one hypothesis like a careful peer',
  'reviewer: score novelty, plausibility and testability from 0 to 10, each with a reason that names the evidence',
  '(the parts given carry the knowledge base ratings: novelty, evidence, validation, assay readiness, readout).',
  'Use the feedback if any. Answer only by calling submit_review with exactly one score per criterion.',
].join(' ');

/**
 * REFLECTION on Claude: reads the hypothesis and its parts (the shared `literature_search` tool
 * under its lock, as offline), asks one forced `submit_review` call (each criterion exactly once,
 * else refused), and writes the review with its overall mean.
 *
 * @example
 * const brains = { ...OFFLINE_BRAINS, REFLECTION: claudeReflection(access) };
 */
export function claudeReflection(access: ClaudeAccess): AgentBrain {
  return async (input, context) => {
    const hypothesisId = String(input.hypothesis_id);
    const entry = await context.memory.get('hypothesis', hypothesisId);
    if (!entry) throw new Error(`Hypothesis ${hypothesisId} is not in context memory: review only written hypotheses.`);
    const hypothesis = HypothesisContentSchema.parse(entry.content);
    const lease = await context.locks.acquire('literature_search', context.taskId, {
      leaseMs: 10_000,
      signal: context.signal,
    });
    let parts;
    try {
      parts = resolveParts(context.knowledge, hypothesis.components);
    } finally {
      lease.release();
    }
    const feedback = context.feedback ? await latestFeedback(context.memory, 'REFLECTION') : undefined;
    const { value } = await askClaude(
      access,
      context,
      {
        system: SYSTEM,
        input: {
          hypothesis: hypothesis.text,
          parts,
          model_system: context.knowledge.model,
          feedback: feedback?.text ?? null,
        },
        tool: {
          name: 'submit_review',
          description: 'Submit the three scored criteria with reasons.',
          schema: ReviewAnswerSchema,
        },
      },
      (answer) =>
        CriterionSchema.options
          .filter((c) => answer.scores.filter((s) => s.criterion === c).length !== 1)
          .map((c) => `criterion ${c} is not scored exactly once`),
    );
    const scores = CriterionSchema.options.map((c) => value.scores.find((s) => s.criterion === c)!);
    return writeReview(context, entry, hypothesis.iteration, scores);
  };
}
