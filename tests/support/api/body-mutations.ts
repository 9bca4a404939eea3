import fc from 'fast-check';

/** A body to send, and the field a mutation touched (undefined for bodies made from nothing). */
export interface FuzzBody {
  /** The JSON value to send, or `raw` text sent as it is (malformed JSON, an empty body...). */
  value?: unknown;
  raw?: string;
  /** The dotted path the mutation changed ('' for the whole body). */
  field?: string;
  kind: 'mutated' | 'generated' | 'valid' | 'raw';
}

type Path = (string | number)[];

/** Every path to a node of a JSON value, the root included. */
export function pathsOf(value: unknown, prefix: Path = []): Path[] {
  const paths: Path[] = [prefix];
  if (Array.isArray(value)) value.forEach((item, index) => paths.push(...pathsOf(item, [...prefix, index])));
  else if (value && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) paths.push(...pathsOf(item, [...prefix, key]));
  return paths;
}

const ODD_VALUES: unknown[] = [
  null,
  '',
  ' ',
  -1,
  0,
  1e308,
  -1e308,
  1.5,
  true,
  [],
  {},
  'x'.repeat(5_000),
  '\u0000',
  '\ud83d\ude00',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '1970-01-01T00:00:00Z',
  [null],
  { '': null },
];

const oddValue = fc.oneof(fc.constantFrom(...ODD_VALUES), fc.jsonValue({ maxDepth: 2 }));
const newKey = fc.string({ minLength: 1, maxLength: 12 }).filter((key) => key !== '__proto__');

type Operation = 'delete' | 'replace' | 'add_key';

function applied(example: unknown, path: Path, operation: Operation, value: unknown, key: string): unknown {
  const copy = structuredClone(example);
  if (path.length === 0) {
    if (operation === 'delete') return undefined;
    if (operation === 'add_key' && copy && typeof copy === 'object' && !Array.isArray(copy))
      return { ...copy, [key]: value };
    return value;
  }
  const parent = path.slice(0, -1).reduce<any>((node, step) => node[step], copy);
  const last = path[path.length - 1]!;
  const node = parent[last];
  if (operation === 'delete') {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else if (operation === 'add_key' && node && typeof node === 'object' && !Array.isArray(node)) {
    node[key] = value;
  } else parent[last] = value;
  return copy;
}

/**
 * Bodies made by breaking a valid example in one place: a field deleted, replaced by an odd value
 * or by another JSON value, or given an unknown key. `field` names where.
 *
 * @example
 * fc.sample(mutatedBodies(readExample('tiers-task.json')), 3);
 */
export function mutatedBodies(example: unknown): fc.Arbitrary<FuzzBody> {
  const paths = pathsOf(example);
  return fc
    .tuple(
      fc.constantFrom(...paths),
      fc.constantFrom<Operation>('delete', 'replace', 'replace', 'add_key'),
      oddValue,
      newKey,
    )
    .map(([path, operation, value, key]) => ({
      value: applied(example, path, operation, value, key),
      field: path.join('.'),
      kind: 'mutated' as const,
    }));
}

const RAW_BODIES = [
  '',
  ' ',
  '{',
  '{"a":',
  'null',
  '[]',
  '"text"',
  '42',
  'true',
  '{"a":1}}',
  '\u0000',
  'NaN',
  "{'a':1}",
];

/** Text that is not the JSON object a route expects: malformed, empty, a scalar. */
export const rawBodies: fc.Arbitrary<FuzzBody> = fc
  .oneof(fc.constantFrom(...RAW_BODIES), fc.string({ maxLength: 60 }))
  .map((raw) => ({ raw, field: '', kind: 'raw' as const }));

/** Any JSON value, from nothing. */
export const generatedBodies: fc.Arbitrary<FuzzBody> = fc
  .jsonValue({ maxDepth: 3 })
  .map((value) => ({ value, field: '', kind: 'generated' as const }));
