import { z } from 'zod';
import { ComponentsSchema, type HypothesisContent } from '../../../../protocol/coscientist/memory-content.ts';
import { conceptsOf, resolveParts } from '../../knowledge/knowledge-base.ts';
import type { AgentBrain } from '../agent-context.ts';
import { guidedConcepts, latestFeedback, readGoal, takenCombinations } from '../memory-reads.ts';
import { askClaude, componentFaults, knowledgeOptions, type ClaudeAccess } from './ask-claude.ts';

/** `propose_hypotheses`' input: each hypothesis a statement and the knowledge base's parts it is made of. */
export const ProposalsSchema = z.strictObject({
  hypotheses: z.array(z.strictObject({ text: z.string().min(1), components: ComponentsSchema })).min(1),
});

const SYSTEM = [
  'You are the GENERATION agent of an AI co-scientist (spec 003). Propose new, testable research hypotheses for',
  "the scientist's goal. Compose each from one intervention, one target and one mechanism of the knowledge given",
  '(by id; prefer a mechanism that acts through the target), never a combination already taken. Follow the',
  "scientist's guidance concepts and preferences, respect the constraints, and use the meta-review feedback:",
  'favour its weak criterion and avoid the parts it lists. Answer only by calling propose_hypotheses with exactly',
  '`count` hypotheses, each a one-sentence statement.',
].join(' ');

/**
 * GENERATION on Claude: reads what the offline agent reads (goal, guidance, feedback, the taken
 * combinations), asks one forced `propose_hypotheses` call, refuses an answer with unknown parts,
 * a taken or repeated combination or the wrong count, and writes the hypotheses as the offline
 * agent does (each reported as a partial first). Concepts come from the knowledge base.
 *
 * @example
 * const brains = { ...OFFLINE_BRAINS, GENERATION: claudeGeneration(access) };
 */
export function claudeGeneration(access: ClaudeAccess): AgentBrain {
  return async (input, context) => {
    const iteration = Number(input.iteration);
    const count = Number(input.count);
    const goal = await readGoal(context.memory);
    const feedback = context.feedback ? await latestFeedback(context.memory, 'GENERATION') : undefined;
    const taken = await takenCombinations(context.memory);
    const { value } = await askClaude(
      access,
      context,
      {
        system: SYSTEM,
        input: {
          goal: goal.goal,
          preferences: goal.preferences,
          constraints: goal.constraints,
          guidance_concepts: await guidedConcepts(context.memory, iteration),
          feedback: feedback
            ? { text: feedback.text, weak_criterion: feedback.weak_criterion, avoid: feedback.avoid }
            : null,
          count,
          taken: [...taken].sort(),
          knowledge: knowledgeOptions(context.knowledge),
        },
        tool: {
          name: 'propose_hypotheses',
          description: 'Submit the new hypotheses: a statement and its intervention, target and mechanism ids each.',
          schema: ProposalsSchema,
        },
      },
      (answer) => [
        ...(answer.hypotheses.length === count ? [] : [`${answer.hypotheses.length} hypotheses, not ${count}`]),
        ...componentFaults(
          context.knowledge,
          answer.hypotheses.map((h) => h.components),
          taken,
        ),
      ],
    );
    const written: { entryId: string; content: HypothesisContent }[] = [];
    for (const [n, proposal] of value.hypotheses.entries()) {
      const content: HypothesisContent = {
        text: proposal.text,
        components: proposal.components,
        concepts: conceptsOf(resolveParts(context.knowledge, proposal.components)),
        parent_ids: [],
        iteration,
        origin: 'generation',
      };
      const entryId = `${context.taskId}-${n + 1}`;
      context.reportPartial({ entry_type: 'hypothesis', entry_id: entryId, content, dependencies: [] });
      written.push({ entryId, content });
    }
    context.signal.throwIfAborted();
    const entries = await Promise.all(
      written.map(({ entryId, content }) => context.memory.create('GENERATION', 'hypothesis', content, { entryId })),
    );
    return { entry_ids: entries.map((e) => e.entry_id) };
  };
}
