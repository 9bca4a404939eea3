import type { HypothesisContent } from '../../../protocol/coscientist/memory-content.ts';
import { conceptsIn } from '../knowledge/concepts.ts';
import { generateHypotheses } from '../rules/generate-hypotheses.ts';
import type { AgentBrain } from './agent-context.ts';
import { guidedConcepts, latestFeedback, readGoal, takenCombinations } from './memory-reads.ts';

/**
 * GENERATION, offline: reads the goal, the guidance that applies to this iteration and (unless
 * ablated) its latest meta-review feedback, composes `count` new hypotheses by the documented
 * rule, and writes them in one atomic write. Each finished hypothesis is reported as it is
 * composed, so an interrupted task leaves them as partial entries.
 */
export const generationAgent: AgentBrain = async (input, context) => {
  const iteration = Number(input.iteration);
  const goal = await readGoal(context.memory);
  const feedback = context.feedback ? await latestFeedback(context.memory, 'GENERATION') : undefined;
  const concepts = [...(await guidedConcepts(context.memory, iteration)), ...conceptsOfPreferences(goal.preferences)];
  const proposals = generateHypotheses({
    knowledge: context.knowledge,
    count: Number(input.count),
    existing: await takenCombinations(context.memory),
    concepts,
    excluded: goal.constraints,
    ...(feedback ? { feedback } : {}),
    seed: `${context.goalId}:${context.taskId}`,
  });
  const written = [];
  for (const [n, proposal] of proposals.entries()) {
    context.signal.throwIfAborted();
    const content: HypothesisContent = {
      text: proposal.text,
      components: proposal.components,
      concepts: proposal.concepts,
      parent_ids: [],
      iteration,
      origin: 'generation',
    };
    const entryId = `${context.taskId}-${n + 1}`;
    context.reportPartial({ entry_type: 'hypothesis', entry_id: entryId, content, dependencies: [] });
    written.push({ entryId, content });
    await context.pause();
  }
  context.signal.throwIfAborted();
  const entries = await Promise.all(
    written.map(({ entryId, content }) => context.memory.create('GENERATION', 'hypothesis', content, { entryId })),
  );
  return { entry_ids: entries.map((e) => e.entry_id) };
};

/** Preferences steer like guidance: the concepts they name. */
function conceptsOfPreferences(preferences: readonly string[]): string[] {
  return preferences.length === 0 ? [] : conceptsIn(preferences.join(' '));
}
