import fc from 'fast-check';
import type { z } from 'zod';

/**
 * Arbitraries to use instead of the derived one for particular schemas (by identity), for
 * refinements too unlikely to be met by filtering (e.g. "must include these two items").
 */
export type ArbitraryOverrides = ReadonlyMap<z.core.$ZodType, fc.Arbitrary<unknown>>;

/** Options of `arbitraryFor`. */
export interface ArbitraryForOptions {
  overrides?: ArbitraryOverrides;
  /** Most elements an array gets beyond its minimum, to keep nested payloads small. */
  maxExtraLength?: number;
}

/**
 * Derives a fast-check arbitrary of values `schema` accepts, by walking zod v4 internals
 * (`schema._zod.def`). Values are plain JSON-safe data (no -0, no undefined inside arrays, optional
 * keys absent rather than undefined), so they survive a JSON round trip. Refinements the walk cannot
 * read (`refine`, `superRefine`) are met by filtering with `safeParse`; pass `overrides` where
 * filtering would reject too much.
 *
 * @example
 * fc.assert(fc.property(arbitraryFor(MySchema), (value) => MySchema.parse(value)));
 */
export function arbitraryFor<S extends z.core.$ZodType>(
  schema: S,
  options: ArbitraryForOptions = {},
): fc.Arbitrary<z.output<S>> {
  return derive(schema, {
    overrides: options.overrides ?? new Map(),
    maxExtra: options.maxExtraLength ?? 3,
  }) as fc.Arbitrary<z.output<S>>;
}

interface Context {
  overrides: ArbitraryOverrides;
  maxExtra: number;
}

type Def = Record<string, unknown> & { type: string; checks?: z.core.$ZodCheck[] };
type CheckDef = Record<string, unknown> & { check: string };

function derive(schema: z.core.$ZodType, ctx: Context): fc.Arbitrary<unknown> {
  const override = ctx.overrides.get(schema);
  if (override) return override;
  const def = schema._zod.def as unknown as Def;
  const checks = (def.checks ?? []).map((check) => check._zod.def as unknown as CheckDef);
  const base = deriveBase(schema, def, checks, ctx);
  // A check the walk does not translate (a refinement) is met by filtering.
  const needsFilter = checks.some((check) => !TRANSLATED_CHECKS.has(check.check));
  return needsFilter ? base.filter((value) => (schema as z.ZodType).safeParse(value).success) : base;
}

const TRANSLATED_CHECKS = new Set([
  'greater_than',
  'less_than',
  'number_format',
  'min_length',
  'max_length',
  'length_equals',
  'string_format',
  'describe',
  'meta',
]);

function deriveBase(schema: z.core.$ZodType, def: Def, checks: CheckDef[], ctx: Context): fc.Arbitrary<unknown> {
  switch (def.type) {
    case 'string':
      return deriveString(schema, def, checks);
    case 'number':
      return deriveNumber(def, checks);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, string | number>));
    case 'array':
      return deriveArray(def, checks, ctx);
    case 'tuple':
      return fc.tuple(...(def.items as z.core.$ZodType[]).map((item) => derive(item, ctx)));
    case 'object':
      return deriveObject(def, ctx);
    case 'record':
      return deriveRecord(def, ctx);
    case 'union':
      return fc.oneof(...(def.options as z.core.$ZodType[]).map((option) => derive(option, ctx)));
    case 'nullable':
      return fc.option(derive(def.innerType as z.core.$ZodType, ctx), { nil: null });
    case 'optional':
      return fc.option(derive(def.innerType as z.core.$ZodType, ctx), { nil: undefined });
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return derive(def.innerType as z.core.$ZodType, ctx);
    case 'pipe':
      return derive(def.in as z.core.$ZodType, ctx);
    case 'lazy':
      return fc.constant(null).chain(() => derive((def.getter as () => z.core.$ZodType)(), ctx));
    case 'any':
    case 'unknown':
      return fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.string());
    default:
      throw new Error(`arbitraryFor: zod type "${def.type}" is not supported; pass an override for it.`);
  }
}

function deriveString(schema: z.core.$ZodType, def: Def, checks: CheckDef[]): fc.Arbitrary<string> {
  // A format lives on the schema's own def (z.uuidv4()) or on a check (.regex()).
  const formats = [def, ...checks].filter((d) => d.check === 'string_format');
  let minLength = 0;
  let maxLength = 40;
  for (const check of checks) {
    if (check.check === 'min_length') minLength = Math.max(minLength, check.minimum as number);
    if (check.check === 'max_length') maxLength = Math.min(maxLength, check.maximum as number);
    if (check.check === 'length_equals') minLength = maxLength = check.length as number;
  }
  maxLength = Math.max(maxLength, minLength);
  const [format] = formats;
  if (!format) return fc.string({ minLength, maxLength });
  const formatted = deriveFormat(format);
  // Several formats, or a format with a length, are met by filtering.
  return formats.length > 1 || checks.some((c) => c.check.endsWith('_length') || c.check === 'length_equals')
    ? formatted.filter((value) => (schema as z.ZodType).safeParse(value).success)
    : formatted;
}

function deriveFormat(format: Record<string, unknown>): fc.Arbitrary<string> {
  switch (format.format) {
    case 'uuid': {
      const version = typeof format.version === 'string' ? Number(format.version.slice(1)) : 4;
      return fc.uuid({ version: version as 4 });
    }
    case 'datetime':
      return fc
        .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-12-31T23:59:59Z'), noInvalidDate: true })
        .map((date) => date.toISOString());
    case 'date':
      return fc
        .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true })
        .map((date) => date.toISOString().slice(0, 10));
    case 'email':
      return fc.emailAddress();
    default:
      if (format.pattern instanceof RegExp) return fc.stringMatching(format.pattern);
      throw new Error(`arbitraryFor: string format "${String(format.format)}" is not supported; pass an override.`);
  }
}

function deriveNumber(def: Def, checks: CheckDef[]): fc.Arbitrary<number> {
  let min = -Number.MAX_VALUE;
  let max = Number.MAX_VALUE;
  let minExcluded = false;
  let maxExcluded = false;
  let integer = def.format === 'safeint' || def.format === 'int32' || def.format === 'uint32';
  for (const check of checks) {
    const value = check.value as number;
    if (check.check === 'greater_than' && (value > min || (value === min && !check.inclusive))) {
      min = value;
      minExcluded = !check.inclusive;
    }
    if (check.check === 'less_than' && (value < max || (value === max && !check.inclusive))) {
      max = value;
      maxExcluded = !check.inclusive;
    }
    if (check.check === 'number_format') integer = true;
  }
  if (integer) {
    const low = Math.max(Number.MIN_SAFE_INTEGER, minExcluded ? Math.floor(min) + 1 : Math.ceil(min));
    const high = Math.min(Number.MAX_SAFE_INTEGER, maxExcluded ? Math.ceil(max) - 1 : Math.floor(max));
    return fc.integer({ min: low, max: high }).map(withoutNegativeZero);
  }
  return fc
    .double({ min, max, minExcluded, maxExcluded, noNaN: true, noDefaultInfinity: true })
    .map(withoutNegativeZero);
}

/** JSON turns -0 into 0, so a value that must survive a round trip never holds -0. */
function withoutNegativeZero(value: number): number {
  return value === 0 ? 0 : value;
}

function deriveArray(def: Def, checks: CheckDef[], ctx: Context): fc.Arbitrary<unknown[]> {
  let minLength = 0;
  let maxLength: number | undefined;
  for (const check of checks) {
    if (check.check === 'min_length') minLength = Math.max(minLength, check.minimum as number);
    if (check.check === 'max_length') maxLength = Math.min(maxLength ?? Infinity, check.maximum as number);
    if (check.check === 'length_equals') minLength = maxLength = check.length as number;
  }
  return fc.array(derive(def.element as z.core.$ZodType, ctx), {
    minLength,
    maxLength: Math.min(maxLength ?? Infinity, minLength + ctx.maxExtra),
  });
}

function deriveObject(def: Def, ctx: Context): fc.Arbitrary<Record<string, unknown>> {
  const shape = def.shape as Record<string, z.core.$ZodType>;
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  const requiredKeys: string[] = [];
  for (const [key, field] of Object.entries(shape)) {
    // An optional key is generated by leaving it out, never as `undefined`.
    const optional = field._zod.optin === 'optional';
    const fieldDef = field._zod.def as unknown as Def;
    model[key] = derive(
      optional && fieldDef.type === 'optional' ? (fieldDef.innerType as z.core.$ZodType) : field,
      ctx,
    );
    if (!optional) requiredKeys.push(key);
  }
  return fc.record(model, { requiredKeys, noNullPrototype: true });
}

function deriveRecord(def: Def, ctx: Context): fc.Arbitrary<Record<string, unknown>> {
  const keyType = def.keyType as z.core.$ZodType;
  const value = derive(def.valueType as z.core.$ZodType, ctx);
  const keys = keyType._zod.values;
  if (keys && !def.partial) {
    // A record keyed by an enum needs every key.
    const model = Object.fromEntries([...keys].map((key) => [String(key), value]));
    return fc.record(model, { noNullPrototype: true });
  }
  const key = derive(keyType, ctx).filter((k) => typeof k === 'string' && k !== '__proto__') as fc.Arbitrary<string>;
  return fc.dictionary(key, value, { maxKeys: ctx.maxExtra + 1, noNullPrototype: true });
}
