import { z } from 'zod';
import type { Tool } from '@anthropic-ai/sdk/resources/messages';

/**
 * Turns a tool's zod parameter schema into the Anthropic `input_schema` with zod's own
 * converter, so the model is shown exactly what the validator accepts. The input side is used
 * (optional fields stay optional); zod's safe-integer bounds on `z.int()` are dropped as noise.
 */
export function toInputSchema(schema: z.ZodType): Tool.InputSchema {
  const json = z.toJSONSchema(schema, {
    io: 'input',
    target: 'draft-2020-12',
    unrepresentable: 'throw',
    override: ({ jsonSchema }) => {
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
    },
  });
  const { $schema: _dialect, ...rest } = json;
  if (rest.type !== 'object') {
    throw new TypeError(`A tool's parameters must be an object schema, got ${String(rest.type)}.`);
  }
  return { ...rest, type: 'object' };
}
