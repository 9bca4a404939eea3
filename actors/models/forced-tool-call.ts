import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import type { ModelProvider } from './model-provider.ts';
import { readModelResponse } from './model-response.ts';
import { RuntimeError, toErrorIssues } from '../../protocol/runtime/runtime-error.ts';

/** What one model call cost, in tokens. */
export interface CallTokens {
  input: number;
  output: number;
}

/** Claude's answer failed the schema of the tool it was made to call: refused, never used. */
export class ModelAnswerError extends RuntimeError {
  override name = 'ModelAnswerError';
  constructor(
    tool: string,
    detail: string,
    /** What the refused call cost (it is paid for all the same). */
    readonly tokens: CallTokens,
    issues?: ReturnType<typeof toErrorIssues>,
  ) {
    super(
      'invalid_model_answer',
      `Claude's ${tool} answer was refused: ${detail}. Nothing of it was used; retry the task, or unset ANTHROPIC_API_KEY to run on the offline brains.`,
      502,
      issues,
    );
  }
}

/** One forced tool call: who asks, what, and the schema the answer must pass. */
export interface ForcedToolCall<S extends z.ZodType> {
  provider: ModelProvider;
  model: string;
  system: string;
  prompt: string;
  tool: { name: string; description: string; schema: S };
  signal?: AbortSignal | undefined;
}

/** The tool Claude is made to call: its input schema is the zod schema's JSON Schema (input side). */
export function toolOf(tool: { name: string; description: string; schema: z.ZodType }): Anthropic.Tool {
  return {
    name: tool.name,
    description: tool.description,
    input_schema: z.toJSONSchema(tool.schema, { io: 'input' }) as Anthropic.Tool.InputSchema,
  };
}

/**
 * Asks Claude through the model layer's provider with `tool_choice: { type: 'tool', name }` (the
 * one tool, forced), and validates the tool input with the same zod schema the tool was made
 * from. A missing or schema-invalid answer rejects with {@link ModelAnswerError} (issues name the
 * fields); API failures reject with the layer's `ModelError`.
 *
 * @example
 * const { value, tokens } = await callForcedTool({ provider, model, system, prompt, tool: { name: 'submit_plan', description, schema: PlanSchema } });
 */
export async function callForcedTool<S extends z.ZodType>(
  call: ForcedToolCall<S>,
): Promise<{ value: z.output<S>; tokens: CallTokens }> {
  const { provider, model, tool } = call;
  const message = await provider.call(
    {
      model,
      system: [{ type: 'text', text: call.system }],
      tools: [toolOf(tool)],
      toolChoice: { type: 'tool', name: tool.name },
      messages: [{ role: 'user', content: call.prompt }],
    },
    call.signal,
  );
  const response = readModelResponse(message, { requestedModel: model, provider });
  const tokens = { input: response.usage.prompt + response.usage.cached, output: response.usage.completion };
  if (response.toolCall?.name !== tool.name) {
    const got = response.toolCall ? `a call of ${response.toolCall.name}` : 'no tool call';
    throw new ModelAnswerError(tool.name, `it made ${got}, not ${tool.name}`, tokens);
  }
  const parsed = tool.schema.safeParse(response.toolCall.arguments);
  if (!parsed.success) {
    const issues = toErrorIssues(parsed.error.issues);
    const first = issues[0];
    throw new ModelAnswerError(
      tool.name,
      `it failed the schema (${issues.length} issue${issues.length === 1 ? '' : 's'}; first at ${first?.path || '(root)'}: ${first?.message})`,
      tokens,
      issues,
    );
  }
  return { value: parsed.data, tokens };
}
