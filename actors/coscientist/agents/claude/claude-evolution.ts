import { z } from 'zod';
import { ComponentsSchema, type HypothesisContent } from '../../../../protocol/coscientist/memory-content.ts';
import { conceptsOf, resolveParts } from '../../knowledge/knowledge-base.ts';
import { INITIAL_ELO } from '../../rules/elo.ts';
import type { AgentBrain } from '../agent-context.ts';
import { allHypotheses, latestFeedback, readRanking, reviewsByHypothesis, takenCombinations } from '../memory-reads.ts';
import { askClaude, componentFaults, knowledgeOptions, type ClaudeAccess } from './ask-claude.ts';

/** `evolve_hypotheses`' input: new hypotheses, each naming the parents it refines or combines. */
export const EvolvedSchema = z.strictObject({
  hypotheses: z
    .array(
      z.strictObject({
        text: z.string().min(1),
        components: ComponentsSchema,
        parent_ids: z.array(z.string().min(1)).min(1),
      }),
    )
    .min(1),
});

const SYSTEM = [
  'You are the EVOLUTION agent of an AI co-scientist (spec 003). From the best-ranked hypotheses given, write new',
  'ones: refine one (change one part to strengthen its weakest criterion, or the one the feedback names) or combine',
  'two (parts of each). Never edit the old ones; name the parents of each new one. Use the knowledge parts by id and',
  'no combination already taken. Answer only by calling evolve_hypotheses with exactly `count` hypotheses.',
].join(' ');

/**
 * EVOLUTION on Claude: the two best reviewed hypotheses by Elo (as offline) go to one forced
 * `evolve_hypotheses` call; an answer with unknown parts, a taken combination, a parent that was
 * not given or the wrong count is refused. New hypotheses are written one by one, each reported
 * as a partial first.
 *
 * @example
 * const brains = { ...OFFLINE_BRAINS, EVOLUTION: claudeEvolution(access) };
 */
export function claudeEvolution(access: ClaudeAccess): AgentBrain {
  return async (input, context) => {
    const iteration = Number(input.iteration);
    const count = Number(input.count ?? 2);
    const { ranking } = await readRanking(context.memory);
    const reviews = await reviewsByHypothesis(context.memory);
    const consumable = new Set((await context.memory.consumable('hypothesis')).map((e) => e.entry_id));
    const elo = (id: string) => ranking.ratings[id] ?? INITIAL_ELO;
    const parents = (await allHypotheses(context.memory))
      .filter((h) => consumable.has(h.entry.entry_id) && reviews.has(h.entry.entry_id))
      .sort((a, b) => elo(b.entry.entry_id) - elo(a.entry.entry_id) || (a.entry.entry_id < b.entry.entry_id ? -1 : 1))
      .slice(0, 2)
      .map((h) => ({
        id: h.entry.entry_id,
        text: h.content.text,
        components: h.content.components,
        scores: reviews.get(h.entry.entry_id)!.scores,
      }));
    if (parents.length === 0) return { entry_ids: [] };
    const feedback = context.feedback ? await latestFeedback(context.memory, 'EVOLUTION') : undefined;
    const taken = await takenCombinations(context.memory);
    const parentIds = new Set(parents.map((p) => p.id));
    const { value } = await askClaude(
      access,
      context,
      {
        system: SYSTEM,
        input: {
          parents,
          count,
          feedback: feedback ? { text: feedback.text, weak_criterion: feedback.weak_criterion } : null,
          taken: [...taken].sort(),
          knowledge: knowledgeOptions(context.knowledge),
        },
        tool: {
          name: 'evolve_hypotheses',
          description: 'Submit the new hypotheses, each with its parts by id and its parent ids.',
          schema: EvolvedSchema,
        },
      },
      (answer) => [
        ...(answer.hypotheses.length === count ? [] : [`${answer.hypotheses.length} hypotheses, not ${count}`]),
        ...componentFaults(
          context.knowledge,
          answer.hypotheses.map((h) => h.components),
          taken,
        ),
        ...answer.hypotheses.flatMap((h, n) =>
          h.parent_ids
            .filter((id) => !parentIds.has(id))
            .map((id) => `hypothesis ${n + 1} names ${id}, not a parent given`),
        ),
      ],
    );
    const entries = [];
    for (const [n, item] of value.hypotheses.entries()) {
      context.signal.throwIfAborted();
      const content: HypothesisContent = {
        text: item.text,
        components: item.components,
        concepts: conceptsOf(resolveParts(context.knowledge, item.components)),
        parent_ids: item.parent_ids,
        iteration,
        origin: 'evolution',
      };
      const entryId = `${context.taskId}-${n + 1}`;
      context.reportPartial({ entry_type: 'hypothesis', entry_id: entryId, content, dependencies: item.parent_ids });
      entries.push(
        await context.memory.create('EVOLUTION', 'hypothesis', content, { entryId, dependencies: item.parent_ids }),
      );
    }
    return { entry_ids: entries.map((e) => e.entry_id) };
  };
}
