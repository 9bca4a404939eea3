import type { Prd } from '../../../protocol/org/prd.ts';
import type { Stories } from '../../../protocol/org/deliverables.ts';

/** A lowercase snake_case name from an id or title (`F-Checkout` -> `f_checkout`). */
export function snake(text: string): string {
  const name = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return /^[a-z]/.test(name) ? name : `r_${name}`;
}

/**
 * `product`'s rule: one user story per PRD feature, its resource named after the feature id, its
 * acceptance criteria numbered `<story>-AC<n>` in the PRD's order.
 *
 * @example
 * storiesFromPrd({ title: 'Shop', features: [{ id: 'cart', title: 'Cart', acceptance_criteria: ['Add an item'] }] }, 1);
 */
export function storiesFromPrd(prd: Prd, prdVersion: number): Stories {
  return {
    prd_version: prdVersion,
    stories: prd.features.map((feature) => {
      const id = `S-${feature.id}`;
      return {
        id,
        feature_id: feature.id,
        title: feature.title,
        as_a: 'user',
        i_want: feature.title,
        so_that: feature.acceptance_criteria[0]!,
        resource: snake(feature.id),
        acceptance_criteria: feature.acceptance_criteria.map((text, n) => ({ id: `${id}-AC${n + 1}`, text })),
      };
    }),
  };
}
