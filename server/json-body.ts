import type { Context } from 'hono';
import type { z } from 'zod';
import { toErrorIssues, ValidationError } from '../protocol/runtime/runtime-error.ts';

/**
 * Reads a JSON body and validates it with a zod schema. Malformed JSON and every schema issue
 * become a 400 `ValidationError` whose issues name the fields.
 */
export async function readJsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw new ValidationError(
      'The body must be a JSON document.',
      [{ path: '', message: 'Malformed JSON' }],
      'invalid_json',
    );
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issues = toErrorIssues(parsed.error.issues);
    throw new ValidationError(
      `Invalid body: ${issues.map((i) => `${i.path || '(body)'}: ${i.message}`).join('; ')}`,
      issues,
    );
  }
  return parsed.data;
}

/**
 * Reads the query string and validates it with a zod schema; every issue becomes a 400
 * `ValidationError` naming the parameter (`until: Invalid input: expected "settled"`).
 */
export function readQuery<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  const parsed = schema.safeParse(c.req.query());
  if (parsed.success) return parsed.data;
  const issues = toErrorIssues(parsed.error.issues);
  throw new ValidationError(
    `Invalid query: ${issues.map((i) => `${i.path || '(query)'}: ${i.message}`).join('; ')}`,
    issues,
  );
}
