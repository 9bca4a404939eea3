import type { z } from 'zod';

/**
 * Values each schema has accepted, by identity. Only parse outputs are remembered, and they are
 * deep-frozen first: a remembered value can never change, so it never needs checking again.
 */
const accepted = new WeakMap<z.ZodType, WeakSet<object>>();

/** Freezes `value` and everything it reaches (a frozen node's children too: freezing is shallow). */
export function deepFreeze<T>(value: T, visited = new WeakSet<object>()): T {
  if (typeof value !== 'object' || value === null || visited.has(value)) return value;
  visited.add(value);
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child, visited);
  return value;
}

/**
 * `schema.safeParse(value)`, done once per value: an envelope the orchestrator checked is not
 * parsed again by the supervisor that routes it. What a successful parse returns is deep-frozen
 * (whoever needs a changed copy makes one, as the machines do anyway) and remembered; passing it
 * to the same schema again returns it as it is. Anything else, including a valid object that did
 * not come out of this function, is parsed as usual. Zod copies what it checks, so the caller's
 * input stays as it was, except what a schema passes through untouched (`z.unknown()`), which is
 * frozen with the rest.
 *
 * `remember: false` skips the freezing and remembering of a new value (a boundary that is the
 * last to check what it is given), and still takes a remembered one as it is.
 *
 * @example
 * const parsed = safeParseOnce(NutritionEnvelopeSchema, raw); // parses, freezes parsed.data
 * safeParseOnce(NutritionEnvelopeSchema, parsed.data);        // no second parse
 */
export function safeParseOnce<S extends z.ZodType>(
  schema: S,
  value: unknown,
  options: { remember?: boolean } = {},
): z.ZodSafeParseResult<z.output<S>> {
  if (typeof value === 'object' && value !== null && accepted.get(schema)?.has(value)) {
    return { success: true, data: value as z.output<S> };
  }
  const result = schema.safeParse(value);
  // The last boundary a value crosses (the supervisor, for most envelopes) need not pay for freezing it.
  if (options.remember === false) return result;
  if (result.success && typeof result.data === 'object' && result.data !== null) {
    deepFreeze(result.data);
    let values = accepted.get(schema);
    if (!values) accepted.set(schema, (values = new WeakSet()));
    values.add(result.data);
  }
  return result;
}
