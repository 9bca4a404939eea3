import type { Criterion } from '../../../protocol/coscientist/payloads.ts';
import type { ResolvedParts } from '../knowledge/knowledge-base.ts';
import type { DomainKnowledge } from '../knowledge/knowledge-types.ts';

/** One criterion's score (0-10) and why. */
export interface CriterionScore {
  criterion: Criterion;
  score: number;
  reason: string;
}

const round = (value: number) => Math.round(value * 100) / 100;
const clamp = (value: number) => Math.min(10, Math.max(0, value));
const level = (value: number) => (value >= 7 ? 'high' : value >= 4 ? 'moderate' : 'low');

/**
 * The documented review criteria (README, "Research co-scientist"), each 0-10:
 * - novelty = 0.6 x the intervention's novelty for this use + 0.4 x the mechanism's novelty;
 * - plausibility = 0.4 x the intervention's evidence + 0.3 x the target's validation, + 2 when
 *   the mechanism acts through the target, + 1 when intervention and target share a concept;
 * - testability = 0.5 x the mechanism's readout + 0.5 x the target's assay readiness.
 *
 * @example
 * scoreCriteria(knowledge, resolveParts(knowledge, components)); // [{ criterion: 'novelty', score: 6.4, reason }, ...]
 */
export function scoreCriteria(knowledge: DomainKnowledge, parts: ResolvedParts): CriterionScore[] {
  const { intervention, target, mechanism } = parts;
  const linked = mechanism.targets.includes(target.id);
  const shared = intervention.concepts.some((concept) => target.concepts.includes(concept));
  const novelty = round(clamp(0.6 * intervention.novelty + 0.4 * mechanism.novelty));
  const plausibility = round(
    clamp(0.4 * intervention.evidence + 0.3 * target.validation + (linked ? 2 : 0) + (shared ? 1 : 0)),
  );
  const testability = round(clamp(0.5 * mechanism.readout + 0.5 * target.assay));
  return [
    {
      criterion: 'novelty',
      score: novelty,
      reason: `${intervention.name} is ${level(intervention.novelty)}ly explored for this use (novelty ${intervention.novelty}/10); ${mechanism.name} is a ${level(mechanism.novelty)}-novelty mechanism.`,
    },
    {
      criterion: 'plausibility',
      score: plausibility,
      reason: `Prior evidence for ${intervention.name} is ${level(intervention.evidence)} (${intervention.evidence}/10), ${target.name} is ${level(target.validation)}ly validated; the mechanism ${linked ? 'acts through' : 'is not known to act through'} this target, and the intervention ${shared ? 'shares' : 'shares no'} biology with it.`,
    },
    {
      criterion: 'testability',
      score: testability,
      reason: `The readout (${level(mechanism.readout)}) and the assays for ${target.name} (${level(target.assay)}) can be run in ${knowledge.model}.`,
    },
  ];
}

/** The mean of the criteria, as a review's `overall`. */
export function overallScore(scores: readonly CriterionScore[]): number {
  return round(scores.reduce((sum, s) => sum + s.score, 0) / scores.length);
}

/** The score of one criterion. */
export function criterionScore(scores: readonly CriterionScore[], criterion: Criterion): number {
  return scores.find((s) => s.criterion === criterion)?.score ?? 0;
}
