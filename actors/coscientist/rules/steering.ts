import { conceptsIn } from '../knowledge/concepts.ts';

/** Guidance the SUPERVISOR makes of a scientist's words. */
export interface Steering {
  text: string;
  concepts: string[];
}

/**
 * Spec 003's natural-language interaction, offline: the SUPERVISOR parses the instruction into
 * the knowledge base's concepts ("protein-protein interactions" -> `protein_protein_interaction`),
 * which GENERATION emphasizes from its next execution. Words that name no concept are kept in
 * the text but steer nothing offline.
 *
 * @example
 * steer('Focus the next generation round on protein-protein interactions'); // { concepts: ['protein_protein_interaction'], ... }
 */
export function steer(text: string): Steering {
  return { text: text.trim(), concepts: conceptsIn(text) };
}
