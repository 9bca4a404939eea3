import type {
  Components,
  FeedbackContent,
  OverviewContent,
  ReviewContent,
} from '../../../protocol/coscientist/memory-content.ts';
import { CriterionSchema, type Criterion } from '../../../protocol/coscientist/payloads.ts';

/** A reviewed hypothesis as META_REVIEW reads it. */
export interface Reviewed {
  id: string;
  text: string;
  components: Components;
  review: ReviewContent;
  elo: number;
}

const round = (value: number) => Math.round(value * 100) / 100;
const mean = (values: readonly number[]) =>
  values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;

/**
 * META_REVIEW's offline rule: the criterion with the lowest mean across all reviews is the
 * recurring weakness; parts that occur in two or more hypotheses scoring below the median
 * overall are to be avoided (added to the previous list). It writes feedback per agent type
 * (GENERATION: weight the weak criterion and avoid those parts; EVOLUTION: refine on it;
 * RANKING: weight it in debates; REFLECTION: justify it with evidence) and a research overview.
 *
 * @example
 * metaReview({ reviewed, iteration: 1, previousAvoid: [] }); // { feedback: [...4 entries], overview }
 */
export function metaReview(input: {
  reviewed: readonly Reviewed[];
  iteration: number;
  previousAvoid: readonly string[];
}): { feedback: FeedbackContent[]; overview: OverviewContent } {
  const { reviewed, iteration } = input;
  const means = CriterionSchema.options.map((criterion) => ({
    criterion,
    mean: round(mean(reviewed.map((r) => r.review.scores.find((s) => s.criterion === criterion)?.score ?? 0))),
  }));
  const weak: Criterion | undefined =
    reviewed.length === 0 ? undefined : [...means].sort((a, b) => a.mean - b.mean)[0]!.criterion;
  const overalls = reviewed.map((r) => r.review.overall).sort((a, b) => a - b);
  const median = overalls.length === 0 ? 0 : overalls[Math.floor(overalls.length / 2)]!;
  const lowCounts = new Map<string, number>();
  for (const r of reviewed.filter((r) => r.review.overall < median)) {
    for (const id of Object.values(r.components)) lowCounts.set(id, (lowCounts.get(id) ?? 0) + 1);
  }
  const avoid = [
    ...new Set([...input.previousAvoid, ...[...lowCounts].filter(([, n]) => n >= 2).map(([id]) => id)]),
  ].sort();
  const meanText = means.map((m) => `${m.criterion} ${m.mean}`).join(', ');
  const weakText = weak ? `Recurring weakness: ${weak} (criterion means: ${meanText}).` : 'No reviews yet.';
  const feedback: FeedbackContent[] = [
    {
      target_agent: 'GENERATION',
      text: `${weakText} Favour parts that score high on ${weak ?? 'every criterion'}${avoid.length > 0 ? `; avoid ${avoid.join(', ')}` : ''}.`,
      incorporation_strategy: 'criteria_weighting',
      ...(weak ? { weak_criterion: weak } : {}),
      avoid,
      iteration,
    },
    {
      target_agent: 'EVOLUTION',
      text: `${weakText} Refine the best hypotheses on ${weak ?? 'their weakest criterion'}.`,
      incorporation_strategy: 'prompt_augmentation',
      ...(weak ? { weak_criterion: weak } : {}),
      avoid,
      iteration,
    },
    {
      target_agent: 'RANKING',
      text: `${weakText} Weight ${weak ?? 'the criteria equally'} more in debates.`,
      incorporation_strategy: 'criteria_weighting',
      ...(weak ? { weak_criterion: weak } : {}),
      avoid: [],
      iteration,
    },
    {
      target_agent: 'REFLECTION',
      text: `${weakText} Justify each ${weak ?? 'criterion'} score with the evidence it rests on.`,
      incorporation_strategy: 'prompt_augmentation',
      ...(weak ? { weak_criterion: weak } : {}),
      avoid: [],
      iteration,
    },
  ];
  const top = [...reviewed].sort((a, b) => b.elo - a.elo || (a.id < b.id ? -1 : 1)).slice(0, 3);
  const newest = reviewed.filter((r) => r.review.iteration === iteration);
  const meanNew = round(mean(newest.map((r) => r.review.overall)));
  const overview: OverviewContent = {
    text:
      `Iteration ${iteration}: ${reviewed.length} reviewed hypotheses, the ${newest.length} new ones scoring ${meanNew} on average. ` +
      (top.length > 0 ? `Leading: ${top.map((t) => `${t.text} (Elo ${Math.round(t.elo)})`).join(' ')} ` : '') +
      weakText,
    iteration,
    top: top.map((t) => ({ hypothesis_id: t.id, elo: round(t.elo), text: t.text })),
    mean_review_score: meanNew,
  };
  return { feedback, overview };
}
