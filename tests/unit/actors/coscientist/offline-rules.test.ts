import { describe, expect, it } from 'vitest';
import {
  componentsKey,
  domainKnowledge,
  inferDomain,
  resolveParts,
} from '../../../../actors/coscientist/knowledge/knowledge-base.ts';
import { judgeDebate, type Contender } from '../../../../actors/coscientist/rules/debate.ts';
import { applyDebates, emptyRanking, ratingsFromMatches } from '../../../../actors/coscientist/rules/elo.ts';
import { evolveHypotheses } from '../../../../actors/coscientist/rules/evolve.ts';
import { generateHypotheses } from '../../../../actors/coscientist/rules/generate-hypotheses.ts';
import { overallScore, scoreCriteria } from '../../../../actors/coscientist/rules/review-criteria.ts';
import { steer } from '../../../../actors/coscientist/rules/steering.ts';
import { tournamentPairs } from '../../../../actors/coscientist/rules/tournament-pairs.ts';
import type { ReviewContent } from '../../../../protocol/coscientist/memory-content.ts';

const liver = domainKnowledge('liver_fibrosis');
const equal = { weights: { novelty: 1 / 3, plausibility: 1 / 3, testability: 1 / 3 } };
const review = (id: string, scores: [number, number, number]): ReviewContent => ({
  hypothesis_id: id,
  scores: (['novelty', 'plausibility', 'testability'] as const).map((criterion, i) => ({
    criterion,
    score: scores[i]!,
    reason: 'r',
  })),
  overall: (scores[0] + scores[1] + scores[2]) / 3,
  iteration: 1,
});
const contender = (id: string, scores: [number, number, number]): Contender => ({
  id,
  text: id,
  review: review(id, scores),
});

describe('offline rules', () => {
  it('infers the domain from the goal, or none', () => {
    expect(inferDomain('How do bacteria spread antibiotic resistance?')).toBe('antimicrobial_resistance');
    expect(inferDomain('Reverse hepatic stellate cell activation in liver fibrosis')).toBe('liver_fibrosis');
    expect(inferDomain('Repurpose approved drugs for AML')).toBe('drug_repurposing');
    expect(inferDomain('Design a faster sorting algorithm')).toBeUndefined();
  });

  it('scores the documented criteria: a mechanism acting through its target is more plausible', () => {
    const linked = scoreCriteria(
      liver,
      resolveParts(liver, { intervention: 'galunisertib', target: 'tgfbr1', mechanism: 'smad_block' }),
    );
    const unlinked = scoreCriteria(
      liver,
      resolveParts(liver, { intervention: 'galunisertib', target: 'tgfbr1', mechanism: 'bile_acid' }),
    );
    const plausibility = (s: typeof linked) => s.find((c) => c.criterion === 'plausibility')!.score;
    // 0.4 x 7 + 0.3 x 9 + 2 (linked) + 1 (shared kinase/signaling) = 8.5
    expect(plausibility(linked)).toBe(8.5);
    expect(plausibility(unlinked)).toBe(6.5);
    expect(linked.every((c) => c.reason.length > 20)).toBe(true);
    expect(overallScore(linked)).toBeCloseTo((linked[0]!.score + 8.5 + linked[2]!.score) / 3, 2);
  });

  it('judges both orders and gives no result when they disagree (a tie broken by a seeded draw)', () => {
    const clear = judgeDebate({
      debateId: 'd',
      a: contender('a', [5, 5, 5]),
      b: contender('b', [8, 8, 8]),
      format: 'multi_turn_debate',
      criteria: equal,
      seed: 's',
    });
    expect(clear).toMatchObject({ consistent: true, winner_id: 'b', loser_id: 'a' });
    expect(clear.debate_transcript.length).toBe(3);
    const outcomes = new Set<boolean>();
    for (let seed = 0; seed < 40; seed++) {
      const tie = judgeDebate({
        debateId: 'd',
        a: contender('a', [6, 6, 6]),
        b: contender('b', [6, 6, 6]),
        format: 'single_comparison',
        criteria: equal,
        seed: `s${seed}`,
      });
      outcomes.add(tie.consistent);
      if (!tie.consistent) expect(tie.winner_id).toBeUndefined();
    }
    expect(outcomes).toEqual(new Set([true, false]));
  });

  it('applies a batch in debate-id order whatever order it comes in, skipping applied and inconsistent debates', () => {
    const debates = [
      judgeDebate({
        debateId: 'd2',
        a: contender('h1', [9, 9, 9]),
        b: contender('h3', [1, 1, 1]),
        format: 'single_comparison',
        criteria: equal,
        seed: 's',
      }),
      judgeDebate({
        debateId: 'd1',
        a: contender('h1', [9, 9, 9]),
        b: contender('h2', [2, 2, 2]),
        format: 'single_comparison',
        criteria: equal,
        seed: 's',
      }),
    ];
    const forward = applyDebates(emptyRanking(), debates, 1);
    const backward = applyDebates(emptyRanking(), [...debates].reverse(), 1);
    expect(forward.ranking).toEqual(backward.ranking);
    expect(forward.matches.map((m) => m.debate_id)).toEqual(['d1', 'd2']);
    expect(forward.ranking.ratings.h1).toBeCloseTo(1200 + 16 + forward.matches[1]!.elo_delta, 6);
    expect(applyDebates(forward.ranking, debates, 2).matches).toEqual([]);
    expect(ratingsFromMatches(forward.matches)).toEqual(forward.ranking.ratings);
  });

  it('pairs the top-k in multi-turn debates and every other hypothesis at least once', () => {
    const entrants = ['a', 'b', 'c', 'd', 'e', 'f'].map((id, i) => ({ id, elo: 1300 - i * 20, matches: i }));
    const pairs = tournamentPairs(entrants, { topK: 3, maxPairs: 20 });
    expect(pairs.filter((p) => p.debate_format === 'multi_turn_debate').length).toBe(3);
    for (const { id } of entrants)
      expect(
        pairs.some((p) => p.a === id || p.b === id),
        id,
      ).toBe(true);
  });

  it('generates new combinations, and favours guided concepts', () => {
    const existing = new Set<string>();
    const plain = generateHypotheses({ knowledge: liver, count: 8, existing, concepts: [], excluded: [], seed: 'x' });
    expect(new Set(plain.map((p) => componentsKey(p.components))).size).toBe(8);
    const guided = generateHypotheses({
      knowledge: liver,
      count: 8,
      existing,
      concepts: steer('Focus on protein-protein interactions').concepts,
      excluded: [],
      seed: 'x',
    });
    const share = (list: typeof plain) =>
      list.filter((p) => p.concepts.includes('protein_protein_interaction')).length / list.length;
    expect(share(guided)).toBeGreaterThanOrEqual(0.75);
    expect(share(guided)).toBeGreaterThan(share(plain));
    const noTaz = generateHypotheses({
      knowledge: liver,
      count: 20,
      existing,
      concepts: [],
      excluded: ['tazemetostat'],
      seed: 'x',
    });
    expect(noTaz.some((p) => p.components.intervention === 'tazemetostat')).toBe(false);
    const noOca = generateHypotheses({
      knowledge: liver,
      count: 200,
      existing,
      concepts: [],
      excluded: ['avoid obeticholic acid'],
      seed: 'x',
    });
    expect(noOca.some((p) => p.components.intervention === 'obeticholic')).toBe(false);
    expect(noOca.some((p) => p.components.mechanism === 'bile_acid')).toBe(true); // "acid" alone names no part
  });

  it('evolves new hypotheses naming their parents, never a combination that exists', () => {
    const parts = (i: string, t: string, m: string) => ({ intervention: i, target: t, mechanism: m });
    const best = { id: 'h1', components: parts('vorinostat', 'ezh2', 'bile_acid'), review: review('h1', [6, 3, 7]) };
    const second = {
      id: 'h2',
      components: parts('galunisertib', 'tgfbr1', 'smad_block'),
      review: review('h2', [4, 8, 8]),
    };
    const existing = new Set([componentsKey(best.components), componentsKey(second.components)]);
    const evolved = evolveHypotheses({ knowledge: liver, parents: [best, second], existing, count: 3 });
    expect(evolved.length).toBe(3);
    for (const e of evolved) {
      expect(existing.has(componentsKey(e.components))).toBe(false);
      expect(e.parent_ids.length).toBeGreaterThan(0);
    }
    expect(evolved.find((e) => e.how === 'combination')?.parent_ids).toEqual(['h1', 'h2']);
  });
});
