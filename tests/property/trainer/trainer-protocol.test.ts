import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InitializerResponseSchema } from '../../../protocol/trainer/initializer-response.ts';
import { RESERVED_SSE_TYPES, SseEventSchema, ToolResultSseEventSchema } from '../../../protocol/trainer/sse-event.ts';
import { TOOL_NAMES } from '../../../protocol/trainer/tools/tool-name.ts';

type JsonSchema = {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: unknown;
};

/** OpenAI strict structured output: every object closed, every property required. */
function checkStrict(schema: JsonSchema, path = '$'): void {
  if (schema.type === 'object') {
    expect(schema.additionalProperties, path).toBe(false);
    expect([...(schema.required ?? [])].sort(), path).toEqual(Object.keys(schema.properties ?? {}).sort());
    for (const [key, child] of Object.entries(schema.properties ?? {})) checkStrict(child, `${path}.${key}`);
  }
  if (schema.items) checkStrict(schema.items, `${path}[]`);
}

describe('trainer protocol (properties)', () => {
  it('gives the initializer response a JSON schema OpenAI strict mode accepts', () => {
    checkStrict(z.toJSONSchema(InitializerResponseSchema) as JsonSchema);
  });

  it('parses tool_start and tool_result for any tool name, and no tool may take a reserved type', () => {
    const name = fc.oneof(fc.constantFrom(...TOOL_NAMES), fc.string({ minLength: 1, maxLength: 20 }));
    fc.assert(
      fc.property(name, fc.dictionary(fc.string(), fc.integer()), fc.boolean(), (tool, args, success) => {
        const reserved = (RESERVED_SSE_TYPES as readonly string[]).includes(tool);
        const start = { type: tool, data: { status: 'running', args } };
        const result = {
          type: tool,
          data: { ...args, success },
          formatted: '<result/>',
          status: success ? 'done' : 'failed',
        };
        expect(SseEventSchema.safeParse(start).success).toBe(!reserved);
        expect(ToolResultSseEventSchema.safeParse(result).success).toBe(!reserved);
      }),
      { numRuns: 300 },
    );
  });

  it('tells the fixed SSE events apart from tool events', () => {
    expect(SseEventSchema.parse({ type: 'done', sessionId: 's1' })).toEqual({ type: 'done', sessionId: 's1' });
    expect(SseEventSchema.safeParse({ type: 'done' }).success).toBe(false);
    expect(SseEventSchema.safeParse({ type: 'error', data: { status: 'running', args: {} } }).success).toBe(false);
    expect(
      SseEventSchema.safeParse({
        type: 'knowledge',
        data: { source: 'user_profile', displayName: 'Profile', status: 'done' },
      }).success,
    ).toBe(true);
  });
});
