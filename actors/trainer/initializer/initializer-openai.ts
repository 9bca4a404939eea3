import type OpenAI from 'openai';
import { APIError, APIUserAbortError } from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { RuntimeError } from '../../../protocol/runtime/runtime-error.ts';
import { InitializerResponseSchema } from '../../../protocol/trainer/initializer-response.ts';
import { INITIALIZER_SYSTEM_PROMPT, renderSelectionInput } from './initializer-prompt.ts';
import type { KnowledgeSelector } from './initializer-selector.ts';

/** The initializer model of spec 001 §1.2 and §5.1. */
export const INITIALIZER_MODEL = 'gpt-4o-mini';

/** The structured output format: a strict JSON Schema generated from the §5.3 zod schema. */
const INITIALIZER_RESPONSE_FORMAT = zodResponseFormat(InitializerResponseSchema, 'initializer_response');

interface OpenAiSelectorOptions {
  /** The model layer's client (`openModelBackends(config).choose({ openai: ({ client }) => ... })`). */
  client: OpenAI;
  model?: string;
  /** The initializer must be quick (the spec expects ~200 ms): each call's timeout, 10 s by default. */
  timeoutMs?: number;
  /** Each call's retries, 1 by default. */
  maxRetries?: number;
}

/** The initializer's model call failed; the turn goes on without new knowledge. */
class InitializerError extends RuntimeError {
  override name = 'InitializerError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('initializer_failed', message, 502);
    if (options && 'cause' in options) this.cause = options.cause;
  }
}

function describeFailure(error: unknown): string {
  if (error instanceof APIUserAbortError) return 'the call was aborted';
  if (error instanceof APIError && typeof error.status === 'number') {
    const hint = error.status === 401 ? ' (check OPENAI_API_KEY)' : '';
    return `OpenAI API error ${error.status}: ${error.message}${hint}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * GPT-4o-mini as the initializer (spec 001 §5.2, §5.3): one Chat Completions call with a strict
 * JSON Schema response format, parsed and validated by the SDK against the zod schema.
 *
 * @example
 * const selector = createOpenAiSelector({ client }); // the client of openModelBackends(config)
 */
export function createOpenAiSelector(options: OpenAiSelectorOptions): KnowledgeSelector {
  const { client } = options;
  const model = options.model ?? INITIALIZER_MODEL;
  const limits = { timeout: options.timeoutMs ?? 10_000, maxRetries: options.maxRetries ?? 1 };
  return {
    kind: 'openai',
    async select(input, signal) {
      let completion;
      try {
        completion = await client.chat.completions.parse(
          {
            model,
            temperature: 0,
            messages: [
              { role: 'system', content: INITIALIZER_SYSTEM_PROMPT },
              { role: 'user', content: renderSelectionInput(input) },
            ],
            response_format: INITIALIZER_RESPONSE_FORMAT,
          },
          signal ? { ...limits, signal } : limits,
        );
      } catch (error) {
        throw new InitializerError(`Initializer (${model}) failed: ${describeFailure(error)}`, { cause: error });
      }
      const message = completion.choices[0]?.message;
      if (message?.refusal) throw new InitializerError(`Initializer (${model}) refused: ${message.refusal}`);
      if (!message?.parsed) throw new InitializerError(`Initializer (${model}) returned no selection.`);
      const usage = completion.usage;
      return {
        response: message.parsed,
        ...(usage ? { usage: { prompt: usage.prompt_tokens, completion: usage.completion_tokens } } : {}),
      };
    },
  };
}
