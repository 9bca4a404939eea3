import type { HypothesisPair } from '../../../protocol/coscientist/payloads.ts';

/** A hypothesis as the pairing sees it. */
export interface Entrant {
  id: string;
  elo: number;
  matches: number;
}

/**
 * RANKING's pairing for one round (the co-scientist paper): every pair within the top `topK` by
 * Elo gets a multi-turn debate; then each other hypothesis, fewest matches first, is paired with
 * the nearest-rated one it has not met this round, in a single comparison. At most `maxPairs`.
 * Deterministic: ties break on ids.
 *
 * @example
 * tournamentPairs([{ id: 'h1', elo: 1216, matches: 1 }, { id: 'h2', elo: 1200, matches: 0 }], { topK: 4, maxPairs: 10 });
 */
export function tournamentPairs(
  entrants: readonly Entrant[],
  options: { topK: number; maxPairs: number },
): HypothesisPair[] {
  const byElo = [...entrants].sort((x, y) => y.elo - x.elo || (x.id < y.id ? -1 : 1));
  const top = byElo.slice(0, options.topK);
  const pairs: HypothesisPair[] = [];
  const met = new Set<string>();
  const key = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);
  const add = (a: string, b: string, debate_format: HypothesisPair['debate_format']) => {
    if (pairs.length >= options.maxPairs || met.has(key(a, b))) return;
    met.add(key(a, b));
    pairs.push(a < b ? { a, b, debate_format } : { a: b, b: a, debate_format });
  };
  for (let i = 0; i < top.length; i++)
    for (let j = i + 1; j < top.length; j++) add(top[i]!.id, top[j]!.id, 'multi_turn_debate');
  const topIds = new Set(top.map((e) => e.id));
  const rest = byElo.filter((e) => !topIds.has(e.id)).sort((x, y) => x.matches - y.matches || (x.id < y.id ? -1 : 1));
  for (const entrant of rest) {
    const partner = byElo
      .filter((other) => other.id !== entrant.id && !met.has(key(entrant.id, other.id)))
      .sort(
        (x, y) =>
          Math.abs(x.elo - entrant.elo) - Math.abs(y.elo - entrant.elo) ||
          x.matches - y.matches ||
          (x.id < y.id ? -1 : 1),
      )[0];
    if (partner) add(entrant.id, partner.id, 'single_comparison');
  }
  return pairs;
}
