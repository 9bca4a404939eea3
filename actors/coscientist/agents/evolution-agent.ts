import type { HypothesisContent } from '../../../protocol/coscientist/memory-content.ts';
import { INITIAL_ELO } from '../rules/elo.ts';
import { evolveHypotheses } from '../rules/evolve.ts';
import type { AgentBrain } from './agent-context.ts';
import { allHypotheses, latestFeedback, readRanking, reviewsByHypothesis, takenCombinations } from './memory-reads.ts';

/**
 * EVOLUTION, offline: reads the ranking, takes the best reviewed hypotheses and writes new ones
 * (refinements and a combination) naming their parents; old hypotheses are never edited. Its
 * meta-review feedback, when there is one, names the criterion to refine on.
 */
export const evolutionAgent: AgentBrain = async (input, context) => {
  const iteration = Number(input.iteration);
  const { ranking } = await readRanking(context.memory);
  const reviews = await reviewsByHypothesis(context.memory);
  const consumable = new Set((await context.memory.consumable('hypothesis')).map((e) => e.entry_id));
  const parents = (await allHypotheses(context.memory))
    .filter((h) => consumable.has(h.entry.entry_id) && reviews.has(h.entry.entry_id))
    .sort(
      (a, b) =>
        (ranking.ratings[b.entry.entry_id] ?? INITIAL_ELO) - (ranking.ratings[a.entry.entry_id] ?? INITIAL_ELO) ||
        (a.entry.entry_id < b.entry.entry_id ? -1 : 1),
    )
    .slice(0, 2)
    .map((h) => ({ id: h.entry.entry_id, components: h.content.components, review: reviews.get(h.entry.entry_id)! }));
  const feedback = context.feedback ? await latestFeedback(context.memory, 'EVOLUTION') : undefined;
  const evolved = evolveHypotheses({
    knowledge: context.knowledge,
    parents,
    existing: await takenCombinations(context.memory),
    count: Number(input.count ?? 2),
    ...(feedback?.weak_criterion ? { focus: feedback.weak_criterion } : {}),
  });
  const entries = [];
  for (const [n, item] of evolved.entries()) {
    context.signal.throwIfAborted();
    const content: HypothesisContent = {
      text: item.text,
      components: item.components,
      concepts: item.concepts,
      parent_ids: item.parent_ids,
      iteration,
      origin: 'evolution',
    };
    const entryId = `${context.taskId}-${n + 1}`;
    context.reportPartial({ entry_type: 'hypothesis', entry_id: entryId, content, dependencies: item.parent_ids });
    entries.push(
      await context.memory.create('EVOLUTION', 'hypothesis', content, { entryId, dependencies: item.parent_ids }),
    );
    await context.pause();
  }
  return { entry_ids: entries.map((e) => e.entry_id) };
};
