import { z } from 'zod';

/**
 * The §3 table as data: each canonical field name and the names it replaces. Payloads that use a
 * replaced name, at any depth, are rejected (see `rejectReplacedFieldNames`).
 */
export const CANONICAL_FIELDS = {
  target_intake_kcal: ['daily_calories', 'total_calories', 'calorie_target'],
  protein_g: ['daily_protein_g', 'protein_target'],
  fat_g: ['daily_fat_g', 'fat_target'],
  carbs_g: ['daily_carbs_g', 'carb_target'],
  fiber_g_min: ['fiber_minimum', 'min_fiber'],
  fiber_target_g: ['fiber_goal', 'daily_fiber'],
  current_weight_kg: ['weight', 'body_weight'],
  target_weight_kg: ['goal_weight'],
  protein_g_per_kg: ['protein_ratio'],
  hydration_L: ['water_target', 'daily_water'],
  weekly_weight_target_kg: ['gain_rate'],
} as const satisfies Record<string, readonly string[]>;

/** A canonical field name of §3. */
type CanonicalFieldName = keyof typeof CANONICAL_FIELDS;

/** The §3 table inverted: replaced name -> canonical name. */
export const REPLACED_FIELD_NAMES: ReadonlyMap<string, CanonicalFieldName> = new Map(
  Object.entries(CANONICAL_FIELDS).flatMap(([canonical, replaced]) =>
    replaced.map((name) => [name, canonical as CanonicalFieldName] as const),
  ),
);

/** The message of the issue raised for a replaced field name; it names the field to use. */
function replacedFieldNameMessage(name: string, canonical: string): string {
  return `\`${name}\` is not a canonical field name: use \`${canonical}\``;
}

/**
 * A key of an open-keyed record inside a payload (e.g. a muscle group): any string except a
 * replaced field name, so that a replaced name cannot slip in through a record.
 */
export const RecordKeySchema = z
  .string()
  .min(1)
  .refine((key) => !REPLACED_FIELD_NAMES.has(key), {
    message: 'A payload key must not be a replaced field name (spec §3).',
  });

/**
 * Adds to `schema` the §3 rule: every replaced field name used as a key, at any depth, yields a
 * `custom` issue at that key whose message names the canonical field. Every object in a payload
 * is strict (or a record), so zod already reports such a key as `unrecognized_keys` (or
 * `invalid_key` for a record); this check turns each of those into an issue that says what to
 * use instead. It runs even after other issues, so no other issue can hide it.
 */
export function rejectReplacedFieldNames<T extends z.ZodType>(schema: T): T {
  return schema.superRefine(
    (_value, ctx) => {
      for (const issue of [...ctx.issues]) {
        for (const [path, key] of keysOf(issue)) {
          const canonical = REPLACED_FIELD_NAMES.get(key);
          if (canonical === undefined) continue;
          ctx.addIssue({
            code: 'custom',
            message: replacedFieldNameMessage(key, canonical),
            path,
            input: key,
          });
        }
      }
    },
    // Runs even when earlier issues have aborted the ordinary checks.
    { when: () => true },
  ) as T;
}

/** The (path, key) pairs of the object keys an issue rejects. */
function keysOf(issue: z.core.$ZodRawIssue): Array<[PropertyKey[], string]> {
  const path = issue.path ?? [];
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => [[...path, key], key]);
  }
  const last = path.at(-1);
  if (issue.code === 'invalid_key' && typeof last === 'string') return [[path, last]];
  return [];
}
