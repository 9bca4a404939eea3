import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  TERMINAL_TOOLS,
  getTool,
  getToolDefinitions,
  isToolName,
  toolRegistry,
} from '../../../../../actors/trainer/tools/index.ts';
import { RuntimeError } from '../../../../../protocol/runtime/runtime-error.ts';
import { TOOL_NAMES } from '../../../../../protocol/trainer/tools/tool-name.ts';

/** Keys a zod object schema requires: those that refuse `undefined`. */
function requiredKeys(schema: z.ZodType): string[] {
  const shape = (schema as z.ZodObject).shape;
  return Object.entries(shape)
    .filter(([, field]) => !(field as z.ZodType).safeParse(undefined).success)
    .map(([key]) => key)
    .sort();
}

describe('toolRegistry', () => {
  it('holds exactly the ten tools of spec 001 §6, each under its own name', () => {
    expect(Object.keys(toolRegistry).sort()).toEqual(
      [
        'adjust_exercise',
        'fetch_data',
        'generate_workout',
        'idle',
        'log_workout',
        'message_ask_user',
        'message_notify_user',
        'remove_exercise',
        'set_current_location',
        'swap_exercise',
      ].sort(),
    );
    for (const [name, tool] of Object.entries(toolRegistry)) expect(tool.name).toBe(name);
  });

  it('marks idle and message_ask_user, and only them, as terminal (spec 001 §3.2)', () => {
    expect([...TERMINAL_TOOLS].sort()).toEqual(['idle', 'message_ask_user']);
  });

  it('carries the status messages of spec 001 §6.7, and none for the two message tools', () => {
    const expected: Record<string, [string, string] | undefined> = {
      generate_workout: ['Creating your workout...', 'Workout ready'],
      swap_exercise: ['Finding alternative...', 'Exercise swapped'],
      adjust_exercise: ['Adjusting exercise...', 'Exercise updated'],
      remove_exercise: ['Removing exercise...', 'Exercise removed'],
      log_workout: ['Saving your workout...', 'Workout logged'],
      fetch_data: ['Gathering your info...', 'Context ready'],
      set_current_location: ['Switching location...', 'Location updated'],
      idle: ['Wrapping up...', 'All done'],
      message_notify_user: undefined,
      message_ask_user: undefined,
    };
    for (const name of TOOL_NAMES) {
      const status = toolRegistry[name].statusMessage;
      expect(status ? [status.start, status.done] : undefined, name).toEqual(expected[name]);
    }
  });
});

describe('getTool', () => {
  it('returns a registered tool and raises unknown_tool for any other name (spec 001 §12.4)', () => {
    expect(getTool('idle')).toBe(toolRegistry.idle);
    expect(() => getTool('make_coffee')).toThrow(RuntimeError);
    expect(() => getTool('make_coffee')).toThrow(/Unknown tool: make_coffee/);
    // Inherited object keys are not tools.
    expect(isToolName('toString')).toBe(false);
    expect(() => getTool('constructor')).toThrow(/Unknown tool/);
  });
});

describe('getToolDefinitions', () => {
  const definitions = getToolDefinitions();

  it('lists every tool in the Anthropic Tool shape with a description', () => {
    expect(definitions.map((tool) => tool.name)).toEqual([...TOOL_NAMES]);
    for (const tool of definitions) expect(tool.description?.length ?? 0, tool.name).toBeGreaterThan(20);
  });

  it('generates each input_schema from the zod schema: an object, strict, with the same required keys', () => {
    for (const tool of definitions) {
      const schema = toolRegistry[tool.name as keyof typeof toolRegistry].parameters;
      expect(tool.input_schema.type, tool.name).toBe('object');
      expect(tool.input_schema['additionalProperties'], tool.name).toBe(false);
      expect(tool.input_schema['$schema'], tool.name).toBeUndefined();
      expect([...(tool.input_schema.required ?? [])].sort(), tool.name).toEqual(requiredKeys(schema));
      expect(Object.keys(tool.input_schema.properties as object).sort(), tool.name).toEqual(
        Object.keys((schema as z.ZodObject).shape).sort(),
      );
      // Exactly what zod's own converter gives, minus the dialect and safe-integer noise.
      const direct = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
      expect(tool.input_schema.required ?? undefined, tool.name).toEqual(direct['required']);
    }
  });

  it('describes the exercise union with the four types and the 16 muscles', () => {
    const text = JSON.stringify(definitions.find((tool) => tool.name === 'generate_workout')?.input_schema);
    for (const type of ['reps', 'hold', 'duration', 'intervals']) expect(text).toContain(`"const":"${type}"`);
    for (const muscle of ['Lower Back', 'Abductors', 'Adductors', 'Neck', 'Trapezius'])
      expect(text).toContain(`"${muscle}"`);
    expect(text).not.toContain('9007199254740991');
  });

  it('puts cache_control on the last tool only when asked (spec 001 §4.2 breakpoint 1)', () => {
    expect(definitions.some((tool) => tool.cache_control)).toBe(false);
    const cached = getToolDefinitions({ cacheLastTool: true });
    expect(cached.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
    expect(cached.slice(0, -1).some((tool) => tool.cache_control)).toBe(false);
  });
});
