import type { Criterion } from '../../../protocol/coscientist/payloads.ts';
import type { Components, ReviewContent } from '../../../protocol/coscientist/memory-content.ts';
import { componentsKey, conceptsOf, hypothesisText, resolveParts } from '../knowledge/knowledge-base.ts';
import type { DomainKnowledge } from '../knowledge/knowledge-types.ts';
import { criterionScore, overallScore, scoreCriteria } from './review-criteria.ts';
import type { Proposal } from './generate-hypotheses.ts';

/** A ranked hypothesis EVOLUTION may build on. */
export interface Parent {
  id: string;
  components: Components;
  review: ReviewContent;
}

/** A new hypothesis and the ones it came from. */
export interface Evolved extends Proposal {
  parent_ids: string[];
  how: 'combination' | 'refinement';
}

const weakestCriterion = (review: ReviewContent): Criterion =>
  [...review.scores].sort((x, y) => x.score - y.score)[0]!.criterion;

/**
 * EVOLUTION's offline rule, building only new hypotheses (old ones are never edited):
 * - refinement of each top hypothesis: replace one part so that its weakest criterion (or the
 *   one the meta-review names) improves most without lowering the overall score;
 * - combination of the best two: the first's intervention with the second's target and mechanism.
 * Combinations the goal already has are skipped.
 *
 * @example
 * evolveHypotheses({ knowledge, parents: [best, second], existing, count: 2 });
 */
export function evolveHypotheses(input: {
  knowledge: DomainKnowledge;
  parents: readonly Parent[];
  existing: ReadonlySet<string>;
  count: number;
  focus?: Criterion;
}): Evolved[] {
  const { knowledge } = input;
  const taken = new Set(input.existing);
  const out: Evolved[] = [];
  const add = (components: Components, parent_ids: string[], how: Evolved['how']) => {
    if (out.length >= input.count || taken.has(componentsKey(components))) return;
    taken.add(componentsKey(components));
    const parts = resolveParts(knowledge, components);
    out.push({ components, text: hypothesisText(knowledge, parts), concepts: conceptsOf(parts), parent_ids, how });
  };
  for (const parent of input.parents) {
    const criterion = input.focus ?? weakestCriterion(parent.review);
    const base = scoreCriteria(knowledge, resolveParts(knowledge, parent.components));
    const variants: Components[] = [
      ...knowledge.interventions.map((i) => ({ ...parent.components, intervention: i.id })),
      ...knowledge.targets.map((t) => ({ ...parent.components, target: t.id })),
      ...knowledge.mechanisms.map((m) => ({ ...parent.components, mechanism: m.id })),
    ].filter((c) => !taken.has(componentsKey(c)));
    const scored = variants
      .map((components) => ({ components, scores: scoreCriteria(knowledge, resolveParts(knowledge, components)) }))
      .filter(({ scores }) => overallScore(scores) >= overallScore(base))
      .sort(
        (x, y) =>
          criterionScore(y.scores, criterion) - criterionScore(x.scores, criterion) ||
          overallScore(y.scores) - overallScore(x.scores) ||
          (componentsKey(x.components) < componentsKey(y.components) ? -1 : 1),
      );
    if (scored[0]) add(scored[0].components, [parent.id], 'refinement');
  }
  const [first, second] = input.parents;
  if (first && second) {
    add({ ...second.components, intervention: first.components.intervention }, [first.id, second.id], 'combination');
    add({ ...first.components, intervention: second.components.intervention }, [second.id, first.id], 'combination');
  }
  return out;
}
