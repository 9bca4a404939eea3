/** Reads one field of an envelope, or `undefined` when a step of its path is missing or not an object. */
export type PathReader = (envelope: unknown) => unknown;

const SEGMENT = /^[A-Za-z_$][\w$-]*$|^\d+$/;

/**
 * Splits a dotted path (`header.message_id`, `context.related_messages[0]`) into its steps; an
 * index may be written `[0]` or `.0`. Throws, naming the path, when it is not one.
 */
export function pathSegments(path: string): string[] {
  const segments = path.replace(/\[(\d+)\]/g, '.$1').split('.');
  if (path === '' || !segments.every((s) => SEGMENT.test(s))) {
    throw new Error(
      `"${path}" is not an envelope path: write field names separated by dots, with [n] for an array index (header.message_id, context.related_messages[0]).`,
    );
  }
  return segments;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * Compiles a dotted path into a reader, once per system (the routing hot path calls readers, it
 * never splits a path). Safe on anything: a sender is read from envelopes that failed validation.
 *
 * @example
 * const taskIdOf = compilePath('payload.metadata.task_id');
 * taskIdOf({ payload: { metadata: { task_id: 't-1' } } }); // 't-1'
 */
export function compilePath(path: string): PathReader {
  const [a, b, c, ...rest] = pathSegments(path);
  // One, two and three steps, unrolled: nearly every envelope field is that shallow.
  if (b === undefined) return (e) => (isObject(e) ? e[a!] : undefined);
  if (c === undefined)
    return (e) => {
      const x = isObject(e) ? e[a!] : undefined;
      return isObject(x) ? x[b] : undefined;
    };
  if (rest.length === 0)
    return (e) => {
      const x = isObject(e) ? e[a!] : undefined;
      const y = isObject(x) ? x[b] : undefined;
      return isObject(y) ? y[c] : undefined;
    };
  const segments = [a!, b, c, ...rest];
  return (e) => {
    let value = e;
    for (const segment of segments) {
      if (!isObject(value)) return undefined;
      value = value[segment];
    }
    return value;
  };
}
