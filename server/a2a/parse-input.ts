import type { z } from 'zod';
import { toErrorIssues, ValidationError } from '../../protocol/runtime/runtime-error.ts';

/**
 * Validates a message part against a system's schema; every issue names its field under the
 * part it came from (`data.age`), so the protocol's invalid-params error says what to fix.
 *
 * @example
 * const intake = parseInput(IntakeDataSchema, input.data, 'data'); // ValidationError "data.age: ..."
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, part: 'data' | 'text'): z.infer<S> {
  if (value === undefined)
    throw new ValidationError(`The message needs a ${part} part.`, [{ path: part, message: `Missing ${part} part` }]);
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = toErrorIssues(parsed.error.issues).map((issue) => ({
    ...issue,
    path: issue.path ? `${part}.${issue.path}` : part,
  }));
  throw new ValidationError(`Invalid ${part} part: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
}
