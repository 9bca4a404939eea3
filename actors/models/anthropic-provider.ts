import type Anthropic from '@anthropic-ai/sdk';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import type { Message } from '@anthropic-ai/sdk/resources/messages';
import { ModelError, modelErrorKindOf } from './model-error.ts';
import type { ModelContentBlock, ModelMessage, ModelProvider, ModelRequest } from './model-provider.ts';

/** The output budget of every call (spec 001 §3.3). */
const MAX_TOKENS = 8192;

/** Forced tool use: the agent never answers in plain text (spec 001 §3.3, Appendix B); a request may name the one tool. */
const TOOL_CHOICE = { type: 'any' } as const;

interface AnthropicProviderOptions {
  /** The model layer's client (`openModelBackends(...).choose({ anthropic: ({ client }) => ... })`). */
  client: Anthropic;
}

const PROVIDER = 'anthropic';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keeps the text and tool_use blocks; a tool input that is not an object cannot be a tool call. */
function toModelMessage(message: Message): ModelMessage {
  const content: ModelContentBlock[] = [];
  for (const block of message.content) {
    if (block.type === 'text') content.push({ type: 'text', text: block.text });
    else if (block.type === 'tool_use') {
      if (!isRecord(block.input)) {
        throw new ModelError('invalid_response', `Tool call ${block.name} has non-object input.`, PROVIDER);
      }
      content.push({ type: 'tool_use', id: block.id, name: block.name, input: block.input });
    }
  }
  const usage = message.usage;
  return {
    id: message.id,
    type: 'message',
    role: 'assistant',
    model: message.model,
    content,
    stop_reason: message.stop_reason,
    usage: {
      input_tokens: usage.input_tokens,
      output_tokens: usage.output_tokens,
      cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
      cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
    },
  };
}

/** Turns whatever the SDK threw into a {@link ModelError} that says what to do. */
function toModelError(error: unknown): ModelError {
  if (error instanceof ModelError) return error;
  const cause = { cause: error };
  if (error instanceof APIUserAbortError)
    return new ModelError('aborted', 'The model call was aborted.', PROVIDER, undefined, cause);
  if (error instanceof APIConnectionTimeoutError) {
    return new ModelError(
      'timeout',
      'The Anthropic API did not answer in time; try again.',
      PROVIDER,
      undefined,
      cause,
    );
  }
  if (error instanceof APIConnectionError) {
    return new ModelError(
      'connection',
      `Could not reach the Anthropic API (${error.message}); check ANTHROPIC_BASE_URL and the network.`,
      PROVIDER,
      undefined,
      cause,
    );
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const kind = modelErrorKindOf(error.status);
    const detail = error.apiMessage ?? error.message;
    const hint = kind === 'authentication' ? ' Check ANTHROPIC_API_KEY.' : '';
    return new ModelError(
      kind,
      `Anthropic API error ${error.status}: ${detail}.${hint}`,
      PROVIDER,
      error.status,
      cause,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ModelError('invalid_response', `Anthropic call failed: ${message}`, PROVIDER, undefined, cause);
}

/**
 * Claude through the Anthropic SDK (spec 001 §3.3), on the model layer's client. Sends exactly
 * the tools, system blocks and messages of the request (the caller placed any cache
 * breakpoints), with `max_tokens` 8192 and `tool_choice: { type: 'any' }` (with one tool, that
 * tool is forced). Errors reject as {@link ModelError}.
 *
 * @example
 * const model = backends.choose({ offline: () => createOfflineProvider(), anthropic: ({ client }) => createAnthropicProvider({ client }) });
 * const message = await model.call({ model: 'claude-haiku-4-5', ...context }, signal);
 */
export function createAnthropicProvider(options: AnthropicProviderOptions): ModelProvider {
  const { client } = options;
  return {
    kind: 'anthropic',
    billed: true,
    async call(request: ModelRequest, signal?: AbortSignal): Promise<ModelMessage> {
      let message: Message;
      try {
        message = await client.messages.create(
          {
            model: request.model,
            max_tokens: MAX_TOKENS,
            tools: request.tools,
            tool_choice: request.toolChoice ?? TOOL_CHOICE,
            system: request.system,
            messages: request.messages,
          },
          signal ? { signal } : {},
        );
      } catch (error) {
        throw toModelError(error);
      }
      return toModelMessage(message);
    },
  };
}
