import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAnthropicProvider } from '../../../../actors/models/anthropic-provider.ts';
import { callForcedTool, ModelAnswerError } from '../../../../actors/models/forced-tool-call.ts';
import { checkForcedToolRequest } from '../../../support/models/fake-claude-checks.ts';
import { startFakeClaude, submit, type FakeClaude } from '../../../support/models/fake-claude.ts';

let claude: FakeClaude;
beforeAll(async () => {
  claude = await startFakeClaude();
});
afterAll(() => claude.server.close());

const Answer = z.strictObject({ n: z.int().min(0) });
const ask = () =>
  callForcedTool({
    provider: createAnthropicProvider({ client: claude.access.client }),
    model: claude.access.model,
    system: 'Count.',
    prompt: 'How many?',
    tool: { name: 'submit_count', description: 'The count.', schema: Answer },
  });

describe('callForcedTool', () => {
  it('sends the one tool forced by name through the real SDK and returns the validated input', async () => {
    claude.answer(submit({ n: 3 }));
    await expect(ask()).resolves.toMatchObject({ value: { n: 3 } });
    expect(claude.server.violations).toEqual([]);
  });

  it('refuses an input the schema refuses, with the issues', async () => {
    claude.answer(submit({ n: -1, extra: true }));
    const error = (await ask().catch((e: unknown) => e)) as ModelAnswerError;
    expect(error).toBeInstanceOf(ModelAnswerError);
    expect(error.issues!.map((i) => i.path).sort()).toEqual(['', 'n']);
  });

  it('refuses a call of another tool', async () => {
    claude.answer(() => ({ toolUse: { name: 'submit_other', input: { n: 1 } } }));
    await expect(ask()).rejects.toThrow(/made a call of submit_other, not submit_count/);
  });

  it("has a wire check that flags what is not forced to one offered tool (the trainer's { type: 'any' })", () => {
    const tools = [{ name: 'submit_count', input_schema: { type: 'object' } }];
    const headers = { 'x-api-key': 'k' };
    const rules = (choice: unknown) =>
      checkForcedToolRequest({ max_tokens: 8192, tools, tool_choice: choice }, headers).map((v) => v.rule);
    expect(rules({ type: 'tool', name: 'submit_count' })).toEqual([]);
    expect(rules({ type: 'any' })).toEqual(['tool_choice']);
    expect(rules({ type: 'tool', name: 'submit_other' })).toEqual(['tool_choice']);
  });
});
