import type { ContextEntry } from '../../../protocol/coscientist/context-entry.ts';
import {
  FeedbackContentSchema,
  GoalContentSchema,
  GuidanceContentSchema,
  HypothesisContentSchema,
  RankingContentSchema,
  ReviewContentSchema,
  type FeedbackContent,
  type GoalContent,
  type HypothesisContent,
  type RankingContent,
  type ReviewContent,
} from '../../../protocol/coscientist/memory-content.ts';
import type { WorkerAgent } from '../../../protocol/coscientist/payloads.ts';
import { componentsKey } from '../knowledge/knowledge-base.ts';
import type { ContextMemory } from '../memory/context-memory.ts';
import { emptyRanking, INITIAL_ELO } from '../rules/elo.ts';
import type { Reviewed } from '../rules/meta-review.ts';

/** The key of the goal's one entry, and of the Elo table. */
export const GOAL_ENTRY = 'goal';
export const RANKING_ENTRY = 'elo';

/** The research goal (written by the SUPERVISOR before any task). */
export async function readGoal(memory: ContextMemory): Promise<GoalContent> {
  const entry = await memory.get('goal', GOAL_ENTRY);
  if (!entry) throw new Error('The research goal is missing from context memory: the SUPERVISOR writes it first.');
  return GoalContentSchema.parse(entry.content);
}

/** The concepts of the guidance that applies from `iteration` on. */
export async function guidedConcepts(memory: ContextMemory, iteration: number): Promise<string[]> {
  const guidance = (await memory.consumable('guidance')).map((e) => GuidanceContentSchema.parse(e.content));
  return [...new Set(guidance.filter((g) => g.from_iteration <= iteration).flatMap((g) => g.concepts))];
}

/** The latest feedback META_REVIEW wrote for `agent`, if any. */
export async function latestFeedback(memory: ContextMemory, agent: WorkerAgent): Promise<FeedbackContent | undefined> {
  const mine = (await memory.consumable('feedback'))
    .map((e) => FeedbackContentSchema.parse(e.content))
    .filter((f) => f.target_agent === agent)
    .sort((a, b) => b.iteration - a.iteration);
  return mine[0];
}

/** A hypothesis with its entry. */
export interface HypothesisRecord {
  entry: ContextEntry;
  content: HypothesisContent;
}

/** Every hypothesis the goal has (partial ones too: their combinations are taken). */
export async function allHypotheses(memory: ContextMemory): Promise<HypothesisRecord[]> {
  return (await memory.list('hypothesis')).map((entry) => ({
    entry,
    content: HypothesisContentSchema.parse(entry.content),
  }));
}

/** The combinations already proposed. */
export async function takenCombinations(memory: ContextMemory): Promise<Set<string>> {
  return new Set((await allHypotheses(memory)).map((h) => componentsKey(h.content.components)));
}

/** The consumable reviews, by hypothesis id. */
export async function reviewsByHypothesis(memory: ContextMemory): Promise<Map<string, ReviewContent>> {
  const reviews = (await memory.consumable('review')).map((e) => ReviewContentSchema.parse(e.content));
  return new Map(reviews.map((r) => [r.hypothesis_id, r]));
}

/** The Elo table (empty before the first tournament). */
export async function readRanking(memory: ContextMemory): Promise<{ ranking: RankingContent; version: number }> {
  const entry = await memory.get('ranking', RANKING_ENTRY);
  return entry
    ? { ranking: RankingContentSchema.parse(entry.content), version: entry.version }
    : { ranking: emptyRanking(), version: 0 };
}

/** The hypotheses META_REVIEW judges: not yet consumed, reviewed, each with its review and Elo. */
export async function reviewedHypotheses(memory: ContextMemory): Promise<Reviewed[]> {
  const reviews = await reviewsByHypothesis(memory);
  const { ranking } = await readRanking(memory);
  const consumable = new Set((await memory.consumable('hypothesis')).map((e) => e.entry_id));
  return (await allHypotheses(memory))
    .filter((h) => consumable.has(h.entry.entry_id) && reviews.has(h.entry.entry_id))
    .map((h) => ({
      id: h.entry.entry_id,
      text: h.content.text,
      components: h.content.components,
      review: reviews.get(h.entry.entry_id)!,
      elo: ranking.ratings[h.entry.entry_id] ?? INITIAL_ELO,
    }));
}
