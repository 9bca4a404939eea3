import type { DebateContent, MatchContent, RankingContent } from '../../../protocol/coscientist/memory-content.ts';

/** Every hypothesis starts here (the co-scientist paper). */
export const INITIAL_ELO = 1200;
/** The default K factor. */
export const DEFAULT_K = 32;

/** The chance the first rating beats the second (Elo's logistic curve, scale 400). */
export function expectedScore(rating: number, opponent: number): number {
  return 1 / (1 + 10 ** ((opponent - rating) / 400));
}

/** An empty table. */
export function emptyRanking(k = DEFAULT_K): RankingContent {
  return { ratings: {}, matches: {}, applied: [], k };
}

/**
 * Applies a batch of debates to the table in a deterministic order (by `debate_id`), skipping
 * those already applied and those without a result (inconsistent verdicts: no draws). Each
 * match stores its delta (rounded to 0.01, the amount both ratings move) so every rating can be
 * recomputed as 1200 plus its deltas. Returns the new table and the matches made.
 *
 * @example
 * applyDebates(emptyRanking(), debates, 2); // { ranking: { ratings: { h1: 1216, h2: 1184 }, ... }, matches: [...] }
 */
export function applyDebates(
  ranking: RankingContent,
  debates: readonly DebateContent[],
  iteration: number,
): { ranking: RankingContent; matches: MatchContent[] } {
  const ratings = { ...ranking.ratings };
  const counts = { ...ranking.matches };
  const applied = new Set(ranking.applied);
  const matches: MatchContent[] = [];
  const batch = [...debates].sort((x, y) => (x.debate_id < y.debate_id ? -1 : x.debate_id > y.debate_id ? 1 : 0));
  for (const debate of batch) {
    if (applied.has(debate.debate_id)) continue;
    applied.add(debate.debate_id);
    if (!debate.consistent || !debate.winner_id || !debate.loser_id) continue;
    const { winner_id: winner, loser_id: loser } = debate;
    const rw = ratings[winner] ?? INITIAL_ELO;
    const rl = ratings[loser] ?? INITIAL_ELO;
    const delta = Math.round(ranking.k * (1 - expectedScore(rw, rl)) * 100) / 100;
    ratings[winner] = rw + delta;
    ratings[loser] = rl - delta;
    counts[winner] = (counts[winner] ?? 0) + 1;
    counts[loser] = (counts[loser] ?? 0) + 1;
    matches.push({
      debate_id: debate.debate_id,
      winner_id: winner,
      loser_id: loser,
      confidence_score: debate.confidence_score,
      elo_delta: delta,
      format: debate.format,
      order: matches.length,
      iteration,
    });
  }
  return { ranking: { ...ranking, ratings, matches: counts, applied: [...applied] }, matches };
}

/**
 * Ratings recomputed from stored matches alone: 1200 plus each match's delta, in the order the
 * matches were applied (iteration, then position). The consistency check compares it with the table.
 */
export function ratingsFromMatches(matches: readonly MatchContent[]): Record<string, number> {
  const ratings: Record<string, number> = {};
  const ordered = [...matches].sort((x, y) => x.iteration - y.iteration || x.order - y.order);
  for (const match of ordered) {
    ratings[match.winner_id] = (ratings[match.winner_id] ?? INITIAL_ELO) + match.elo_delta;
    ratings[match.loser_id] = (ratings[match.loser_id] ?? INITIAL_ELO) - match.elo_delta;
  }
  return ratings;
}
