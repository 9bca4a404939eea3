import type { DebateContent, ReviewContent } from '../../../protocol/coscientist/memory-content.ts';
import type { Criterion, DebateFormat, EvaluationCriteria } from '../../../protocol/coscientist/payloads.ts';
import { seededRandom } from './seeded-random.ts';

/** One side of a debate: its id, statement and review. */
export interface Contender {
  id: string;
  text: string;
  review: ReviewContent;
}

const scoreOf = (review: ReviewContent, criterion: Criterion) =>
  review.scores.find((s) => s.criterion === criterion)?.score ?? 0;

/** A hypothesis' weighted score under the debate's evaluation criteria. */
export function weightedScore(review: ReviewContent, criteria: EvaluationCriteria): number {
  const { weights } = criteria;
  return (
    weights.novelty * scoreOf(review, 'novelty') +
    weights.plausibility * scoreOf(review, 'plausibility') +
    weights.testability * scoreOf(review, 'testability')
  );
}

/** The verdict with `first` presented first: the higher weighted score, a seeded draw on an exact tie. */
function verdict(first: Contender, second: Contender, criteria: EvaluationCriteria, seed: string): string {
  const a = weightedScore(first.review, criteria);
  const b = weightedScore(second.review, criteria);
  if (a !== b) return a > b ? first.id : second.id;
  return seededRandom(`${seed}:${first.id}:${second.id}`)() < 0.5 ? first.id : second.id;
}

const strongest = (review: ReviewContent) => [...review.scores].sort((x, y) => y.score - x.score)[0]!;
const weakest = (review: ReviewContent) => [...review.scores].sort((x, y) => x.score - y.score)[0]!;

/**
 * Judges a pair by the evaluation criteria, in both orders (position bias): when the verdicts
 * disagree (only a tie broken by the seeded draw can do that) there is no result. A multi-turn
 * debate has each side argue its strongest criterion and attack the other's weakest before the
 * verdict; a single comparison is the verdict alone. Confidence grows with the score gap.
 *
 * @example
 * judgeDebate({ debateId: 'd1-h1-h2', a, b, format: 'single_comparison', criteria, seed: 'goal-1' });
 */
export function judgeDebate(input: {
  debateId: string;
  a: Contender;
  b: Contender;
  format: DebateFormat;
  criteria: EvaluationCriteria;
  seed: string;
}): DebateContent {
  const { a, b, criteria, format } = input;
  const forward = verdict(a, b, criteria, input.seed);
  const backward = verdict(b, a, criteria, input.seed);
  const consistent = forward === backward;
  const gap = Math.abs(weightedScore(a.review, criteria) - weightedScore(b.review, criteria));
  const transcript: DebateContent['debate_transcript'] = [];
  if (format === 'multi_turn_debate') {
    for (const [self, other] of [
      [a, b],
      [b, a],
    ] as const) {
      const best = strongest(self.review);
      const worst = weakest(other.review);
      transcript.push({
        speaker: self.id,
        text: `${self.text} Its ${best.criterion} (${best.score}/10): ${best.reason} Against ${other.id}: its ${worst.criterion} is only ${worst.score}/10.`,
      });
    }
  }
  const winner = consistent ? forward : undefined;
  transcript.push({
    speaker: 'judge',
    text: consistent
      ? `${winner} wins on the weighted criteria (gap ${gap.toFixed(2)}), in both orders.`
      : 'The verdict changed with the order of presentation: no result.',
  });
  const content: DebateContent = {
    debate_id: input.debateId,
    pair: [a.id, b.id],
    format,
    consistent,
    debate_transcript: transcript,
    confidence_score: consistent ? Math.round(Math.min(0.99, 0.5 + gap / 10) * 1000) / 1000 : 0,
  };
  if (winner) {
    content.winner_id = winner;
    content.loser_id = winner === a.id ? b.id : a.id;
  }
  return content;
}
