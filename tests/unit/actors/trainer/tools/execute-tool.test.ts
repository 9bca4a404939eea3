import { describe, expect, it } from 'vitest';
import { executeTool, toolRegistry, wrapInXml } from '../../../../../actors/trainer/tools/index.ts';
import { createToolTestContext } from '../../../../support/trainer/trainer-tool-fixtures.ts';

describe('executeTool', () => {
  it('turns an unknown tool into a failed result instead of throwing', async () => {
    const output = await executeTool('make_coffee', { strength: 'double' }, createToolTestContext());
    expect(output.status).toBe('failed');
    expect(output.terminal).toBe(false);
    expect(output.result).toMatchObject({ success: false, error_code: 'unknown_tool' });
    expect(output.rawFormatted).toContain('Unknown tool: make_coffee');
    expect(output.formatted).toMatch(/^<tool_error name="make_coffee">\n[\s\S]*\n<\/tool_error>$/);
  });

  it('refuses a missing required field, naming it', async () => {
    const output = await executeTool('idle', {}, createToolTestContext());
    expect(output.result).toMatchObject({ success: false, error_code: 'invalid_arguments' });
    if (output.result.success) throw new Error('expected a failure');
    expect(output.result.error).toContain('reason');
    expect(output.result.issues?.map((issue) => issue.path)).toEqual(['reason']);
  });

  it('refuses a wrong type and an unknown key, naming both fields', async () => {
    const output = await executeTool('message_ask_user', { question: 42, mood: 'happy' }, createToolTestContext());
    if (output.result.success) throw new Error('expected a failure');
    expect(output.result.error).toContain('question');
    expect(output.result.error).toContain('mood');
    expect(output.rawFormatted).toContain('- question:');
  });

  it('names the nested field of a bad exercise', async () => {
    const output = await executeTool(
      'swap_exercise',
      { exercise_id: '1', new_exercise: { exercise_type: 'reps', exercise_name: 'X' } },
      createToolTestContext(),
    );
    if (output.result.success) throw new Error('expected a failure');
    const paths = output.result.issues?.map((issue) => issue.path) ?? [];
    expect(paths).toContain('new_exercise.sets');
    expect(paths).toContain('new_exercise.muscles_utilized');
  });

  it('refuses arguments that are not an object', async () => {
    for (const raw of [null, undefined, 'idle', 7, []]) {
      const output = await executeTool('idle', raw, createToolTestContext());
      expect(output.result).toMatchObject({ success: false, error_code: 'invalid_arguments' });
    }
  });

  it('turns a tool that throws into a failed result the loop can continue from', async () => {
    const ctx = createToolTestContext();
    ctx.userData.get = async () => {
      throw new Error('database is down');
    };
    const output = await executeTool('set_current_location', { location_name: 'Home' }, ctx);
    expect(output.status).toBe('failed');
    expect(output.result).toMatchObject({ success: false, error_code: 'execution_failed' });
    expect(output.rawFormatted).toContain('database is down');
    expect(output.statusMessage).toEqual(toolRegistry.set_current_location.statusMessage);
  });

  it('wraps a success in <tool_result> and reports terminal for a successful idle', async () => {
    const output = await executeTool('idle', { reason: 'Workout delivered' }, createToolTestContext());
    expect(output).toMatchObject({ tool: 'idle', status: 'done', terminal: true });
    expect(output.result).toEqual({ success: true, idle: true, reason: 'Workout delivered' });
    expect(output.formatted).toBe(wrapInXml('idle', output.rawFormatted, false));
    expect(output.formatted.startsWith('<tool_result name="idle">\n')).toBe(true);
  });

  it('does not stop the loop when a terminal tool fails', async () => {
    const output = await executeTool('message_ask_user', { question: '' }, createToolTestContext());
    expect(output.status).toBe('failed');
    expect(output.terminal).toBe(false);
  });
});

describe('wrapInXml', () => {
  it('defuses a closing tag inside the text and cleans the tool name', () => {
    const wrapped = wrapInXml('bad"name>', 'a </tool_result> b', false);
    expect(wrapped).toBe('<tool_result name="bad_name_">\na &lt;/tool_result> b\n</tool_result>');
    expect(wrapped.match(/<\/tool_result>/g)).toHaveLength(1);
  });
});
