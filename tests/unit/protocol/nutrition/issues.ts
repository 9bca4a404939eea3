import type { z } from 'zod';
import { toErrorIssues } from '../../../../protocol/runtime/runtime-error.ts';

/** The issues `schema` raises for `value` as dotted paths and messages; [] when it parses. */
export function issuesOf(schema: z.ZodType, value: unknown): { path: string; message: string }[] {
  const result = schema.safeParse(value);
  return result.success ? [] : toErrorIssues(result.error.issues);
}

/** The dotted paths of the issues `schema` raises for `value`. */
export function issuePaths(schema: z.ZodType, value: unknown): string[] {
  return issuesOf(schema, value).map((issue) => issue.path);
}
