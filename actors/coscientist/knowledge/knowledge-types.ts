import type { Domain } from '../../../protocol/coscientist/domain.ts';

/**
 * An intervention of the knowledge base. Ratings are 0-10: `novelty` (how little this use has
 * been explored), `evidence` (prior clinical or preclinical support).
 */
export interface Intervention {
  id: string;
  name: string;
  concepts: readonly string[];
  novelty: number;
  evidence: number;
}

/** A target: `validation` (genetic or clinical support of its role), `assay` (how readily it is measured). */
export interface Target {
  id: string;
  name: string;
  concepts: readonly string[];
  validation: number;
  assay: number;
}

/** A mechanism: the targets it acts through, `novelty` and `readout` (a clear, measurable endpoint). */
export interface Mechanism {
  id: string;
  name: string;
  concepts: readonly string[];
  targets: readonly string[];
  novelty: number;
  readout: number;
}

/** One domain's knowledge: the parts hypotheses are composed of, and words that name the domain in a goal. */
export interface DomainKnowledge {
  domain: Domain;
  /** The disease or problem, as hypothesis text names it. */
  subject: string;
  keywords: readonly string[];
  interventions: readonly Intervention[];
  targets: readonly Target[];
  mechanisms: readonly Mechanism[];
  /** A model system in which each hypothesis can be tested (testability reasons name it). */
  model: string;
}
