import type { Components, FeedbackContent } from '../../../protocol/coscientist/memory-content.ts';
import { allComponents, componentsKey, conceptsOf, hypothesisText, resolveParts } from '../knowledge/knowledge-base.ts';
import type { DomainKnowledge } from '../knowledge/knowledge-types.ts';
import { criterionScore, overallScore, scoreCriteria } from './review-criteria.ts';
import { seededRandom, shuffled } from './seeded-random.ts';

/** What GENERATION reads before it composes (all from context memory). */
export interface GenerationInput {
  knowledge: DomainKnowledge;
  count: number;
  /** Combinations the goal already has (never proposed twice). */
  existing: ReadonlySet<string>;
  /** Concepts the scientist's guidance and preferences emphasize. */
  concepts: readonly string[];
  /** The goal's constraints: a part one of them names (its id, or the first long word of its name) is left out. */
  excluded: readonly string[];
  /** The latest meta-review feedback to GENERATION, if any. */
  feedback?: FeedbackContent;
  seed: string;
}

/** A proposed hypothesis. */
export interface Proposal {
  components: Components;
  text: string;
  concepts: string[];
}

/**
 * GENERATION's offline rule. Candidates are the domain's combinations not yet proposed and not
 * excluded by a constraint. With feedback (criteria weighting and an exclusion list), parts the
 * meta-review found weak are dropped and candidates are ranked by overall + the weak criterion,
 * the proposals drawn from the best; without feedback they are drawn at random (seeded). Guided
 * concepts come first: up to three quarters of the proposals involve one when candidates allow.
 *
 * @example
 * generateHypotheses({ knowledge, count: 4, existing: new Set(), concepts: [], excluded: [], seed: 'g1:1' });
 */
export function generateHypotheses(input: GenerationInput): Proposal[] {
  const { knowledge, count, feedback } = input;
  const random = seededRandom(input.seed);
  const constraints = input.excluded.map((text) => text.toLowerCase());
  // A part is excluded when a constraint names it: its id, or the first long word of its name.
  const isExcluded = (id: string, name: string) => {
    const word = name
      .toLowerCase()
      .split(/[\s(),]+/)
      .find((w) => w.length >= 5);
    return constraints.some(
      (c) => c.includes(id.replaceAll('_', ' ')) || c.includes(id) || (word !== undefined && c.includes(word)),
    );
  };
  let candidates = allComponents(knowledge)
    .filter((c) => !input.existing.has(componentsKey(c)))
    .map((components) => ({ components, parts: resolveParts(knowledge, components) }))
    .filter(({ parts }) => !Object.values(parts).some((part) => isExcluded(part.id, part.name)));
  const guided = new Set(input.concepts);
  const involves = (c: (typeof candidates)[number]) => conceptsOf(c.parts).some((concept) => guided.has(concept));
  const inGuidance = candidates.filter(involves);
  if (guided.size > 0 && inGuidance.length >= count) candidates = inGuidance;
  if (feedback) {
    const avoid = new Set(feedback.avoid);
    const kept = candidates.filter(
      ({ components: c }) => ![c.intervention, c.target, c.mechanism].some((id) => avoid.has(id)),
    );
    if (kept.length >= count) candidates = kept;
    const weight = (parts: (typeof candidates)[number]['parts']) => {
      const scores = scoreCriteria(knowledge, parts);
      const weak = feedback.weak_criterion ? criterionScore(scores, feedback.weak_criterion) : 0;
      return overallScore(scores) + 0.5 * weak;
    };
    const ranked = candidates
      .map((candidate) => ({ candidate, weight: weight(candidate.parts) }))
      .sort(
        (a, b) =>
          b.weight - a.weight ||
          (componentsKey(a.candidate.components) < componentsKey(b.candidate.components) ? -1 : 1),
      );
    candidates = shuffled(
      ranked.slice(0, Math.max(count * 2, 6)).map((r) => r.candidate),
      random,
    );
  } else {
    candidates = shuffled(candidates, random);
  }
  const ordered =
    guided.size === 0 ? candidates : [...candidates.filter(involves), ...candidates.filter((c) => !involves(c))];
  return ordered.slice(0, count).map(({ components, parts }) => ({
    components,
    text: hypothesisText(knowledge, parts),
    concepts: conceptsOf(parts),
  }));
}
