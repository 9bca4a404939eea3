/**
 * The concepts the knowledge base tags its parts with, and the words that name each in a
 * scientist's steering ("focus on protein-protein interactions" names `protein_protein_interaction`).
 */
export const CONCEPT_WORDS: Readonly<Record<string, readonly RegExp[]>> = {
  protein_protein_interaction: [/protein[- ]protein/i, /\bppis?\b/i, /\binteractome\b/i],
  kinase: [/\bkinases?\b/i, /phosphorylat/i],
  signaling: [/signal(l)?ing/i, /\bpathways?\b/i],
  inflammation: [/inflamm/i, /cytokine/i],
  immune: [/\bimmun/i, /macrophage/i, /monocyte/i],
  metabolism: [/metabol/i, /\bmitochondri/i],
  apoptosis: [/apoptos/i, /cell death/i],
  epigenetic: [/epigenetic/i, /\bhdac\b/i, /chromatin/i, /methylation/i],
  efflux_pump: [/efflux/i],
  biofilm: [/biofilm/i],
  quorum_sensing: [/quorum/i],
  membrane: [/membrane/i, /\bcell wall\b/i],
  enzyme: [/enzym/i, /lactamase/i],
  phage: [/\bphages?\b/i, /bacteriophage/i],
  horizontal_transfer: [/horizontal/i, /gene transfer/i, /plasmid/i, /mobile genetic/i],
  matrix: [/\bmatrix\b/i, /collagen/i, /extracellular/i],
  proteostasis: [/proteasom/i, /proteostasis/i, /protein folding/i],
  oxidative_stress: [/oxidative/i, /\bros\b/i],
};

/**
 * The concepts a text names, in the vocabulary's order.
 *
 * @example
 * conceptsIn('Focus the next round on protein-protein interactions'); // ['protein_protein_interaction']
 */
export function conceptsIn(text: string): string[] {
  return Object.entries(CONCEPT_WORDS)
    .filter(([, patterns]) => patterns.some((pattern) => pattern.test(text)))
    .map(([concept]) => concept);
}
