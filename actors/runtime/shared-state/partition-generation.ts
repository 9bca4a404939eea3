import type { Journal } from '../journal.ts';

/**
 * The journal partition of generation `generation` of the scope instance `<scope>/<id>`: the
 * first generation is `<scope>/<id>` itself, later ones `<scope>#<n>/<id>`. A scope name holds
 * no `#` or `/`, so no id can make two scope instances share a partition.
 */
export function generationKey(scope: string, id: string, generation: number): string {
  return generation === 0 ? `${scope}/${id}` : `${scope}#${generation}/${id}`;
}

/**
 * The newest generation of a scope instance, found without reading the ones before it: a
 * generation exists once its snapshot is durable, generations are made one after the other and
 * never removed, so existence is monotone and a galloping search (1, 2, 4, ... then bisection)
 * finds the newest in O(log n) probes. A partition that never compacted costs one probe of a
 * partition that does not exist.
 */
export async function latestGeneration(journal: Journal<unknown>, scope: string, id: string): Promise<number> {
  const exists = async (generation: number) => (await journal.lastSeq(generationKey(scope, id, generation))) > 0;
  if (!(await exists(1))) return 0;
  let low = 1;
  let high = 2;
  while (await exists(high)) {
    low = high;
    high *= 2;
  }
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (await exists(middle)) low = middle;
    else high = middle;
  }
  return low;
}
