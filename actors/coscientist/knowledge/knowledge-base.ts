import type { Domain } from '../../../protocol/coscientist/domain.ts';
import type { Components } from '../../../protocol/coscientist/memory-content.ts';
import { ANTIMICROBIAL_RESISTANCE } from './antimicrobial-resistance.ts';
import { DRUG_REPURPOSING } from './drug-repurposing.ts';
import type { DomainKnowledge, Intervention, Mechanism, Target } from './knowledge-types.ts';
import { LIVER_FIBROSIS } from './liver-fibrosis.ts';

const DOMAINS: Readonly<Record<Domain, DomainKnowledge>> = {
  drug_repurposing: DRUG_REPURPOSING,
  antimicrobial_resistance: ANTIMICROBIAL_RESISTANCE,
  liver_fibrosis: LIVER_FIBROSIS,
};

/** The built-in domains, in a stable order. */
export const SUPPORTED_DOMAINS = Object.keys(DOMAINS) as Domain[];

/** The knowledge of one domain. */
export function domainKnowledge(domain: Domain): DomainKnowledge {
  return DOMAINS[domain];
}

/**
 * The domain a goal's words point to: the one whose keywords occur most often (ties go to the
 * first listed), or `undefined` when none occurs.
 *
 * @example
 * inferDomain('Explain how bacteria share resistance genes'); // 'antimicrobial_resistance'
 */
export function inferDomain(goal: string): Domain | undefined {
  const text = goal.toLowerCase();
  let best: Domain | undefined;
  let bestHits = 0;
  for (const domain of SUPPORTED_DOMAINS) {
    const hits = DOMAINS[domain].keywords.filter((word) => text.includes(word)).length;
    if (hits > bestHits) [best, bestHits] = [domain, hits];
  }
  return best;
}

/** The parts of a hypothesis, resolved in its domain's knowledge. */
export interface ResolvedParts {
  intervention: Intervention;
  target: Target;
  mechanism: Mechanism;
}

/** Resolves component ids; throws naming the unknown one (a hypothesis from another domain, say). */
export function resolveParts(knowledge: DomainKnowledge, components: Components): ResolvedParts {
  const find = <T extends { id: string }>(list: readonly T[], id: string, kind: string): T => {
    const found = list.find((item) => item.id === id);
    if (!found) throw new Error(`Unknown ${kind} "${id}" in the ${knowledge.domain} knowledge base.`);
    return found;
  };
  return {
    intervention: find(knowledge.interventions, components.intervention, 'intervention'),
    target: find(knowledge.targets, components.target, 'target'),
    mechanism: find(knowledge.mechanisms, components.mechanism, 'mechanism'),
  };
}

/** Every combination of the domain's parts, in a stable order. */
export function allComponents(knowledge: DomainKnowledge): Components[] {
  return knowledge.interventions.flatMap((i) =>
    knowledge.targets.flatMap((t) =>
      knowledge.mechanisms.map((m) => ({ intervention: i.id, target: t.id, mechanism: m.id })),
    ),
  );
}

/** The key of a combination (no two hypotheses of a goal share one). */
export function componentsKey(components: Components): string {
  return `${components.intervention}|${components.target}|${components.mechanism}`;
}

/** The concepts a combination involves (the union of its parts'). */
export function conceptsOf(parts: ResolvedParts): string[] {
  return [...new Set([...parts.intervention.concepts, ...parts.target.concepts, ...parts.mechanism.concepts])].sort();
}

/** The hypothesis statement for a combination. */
export function hypothesisText(knowledge: DomainKnowledge, parts: ResolvedParts): string {
  return `${capitalize(parts.intervention.name)} acts on ${parts.target.name} in ${knowledge.subject} by ${parts.mechanism.name}.`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
