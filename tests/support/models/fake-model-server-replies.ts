import type { PromptCacheUsage } from '../../../actors/models/prompt-cache-simulator.ts';
import { estimateTokens } from '../../../actors/models/token-estimate.ts';

/** A scripted answer of the Messages endpoint. */
export type AnthropicReply =
  /** One tool_use block (what forced tool use gives), optionally after some text. */
  | { toolUse: { name: string; input: Record<string, unknown>; id?: string }; text?: string }
  /** Raw content blocks, e.g. only text to test a response without a tool call. */
  | { content: Record<string, unknown>[]; stop_reason?: string }
  /** An API error as the API sends it. */
  | { error: { status: number; type?: string; message: string } };

/** A scripted answer of the Chat Completions endpoint. */
export type OpenAiReply =
  /** Content that is this value as JSON (a structured output). */
  | { json: unknown }
  | { content: string; finish_reason?: 'stop' | 'length' | 'content_filter' }
  | { refusal: string }
  | { error: { status: number; type?: string; message: string } };

/** An HTTP answer: status, body, extra headers. */
export interface WireResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

/** A Messages API response body (or error body) for a reply, with the simulated cache usage. */
export function anthropicResponse(
  reply: AnthropicReply,
  request: Record<string, unknown>,
  n: number,
  usage: PromptCacheUsage,
): WireResponse {
  const headers = { 'request-id': `req_fake_${n}` };
  if ('error' in reply) {
    const type = reply.error.type ?? ANTHROPIC_ERROR_TYPES[reply.error.status] ?? 'api_error';
    return {
      status: reply.error.status,
      headers,
      body: { type: 'error', error: { type, message: reply.error.message } },
    };
  }
  const content =
    'content' in reply
      ? reply.content
      : [
          ...(reply.text ? [{ type: 'text', text: reply.text }] : []),
          {
            type: 'tool_use',
            id: reply.toolUse.id ?? `toolu_fake_${n}`,
            name: reply.toolUse.name,
            input: reply.toolUse.input,
          },
        ];
  const stop = 'content' in reply ? (reply.stop_reason ?? 'end_turn') : 'tool_use';
  return {
    status: 200,
    headers,
    body: {
      id: `msg_fake_${n}`,
      type: 'message',
      role: 'assistant',
      model: String(request['model'] ?? 'unknown'),
      content,
      stop_reason: stop,
      stop_sequence: null,
      usage: { ...usage, output_tokens: estimateTokens(JSON.stringify(content)) },
    },
  };
}

/** A Chat Completions response body (or error body) for a reply. */
export function openAiResponse(reply: OpenAiReply, request: Record<string, unknown>, n: number): WireResponse {
  const headers = { 'x-request-id': `req_fake_${n}` };
  if ('error' in reply) {
    return {
      status: reply.error.status,
      headers,
      body: {
        error: {
          message: reply.error.message,
          type: reply.error.type ?? 'invalid_request_error',
          param: null,
          code: null,
        },
      },
    };
  }
  const content = 'json' in reply ? JSON.stringify(reply.json) : 'content' in reply ? reply.content : null;
  const refusal = 'refusal' in reply ? reply.refusal : null;
  const finish = 'finish_reason' in reply && reply.finish_reason ? reply.finish_reason : 'stop';
  const promptTokens = estimateTokens(JSON.stringify(request['messages'] ?? []));
  const completionTokens = estimateTokens(content ?? refusal ?? '');
  return {
    status: 200,
    headers,
    body: {
      id: `chatcmpl-fake-${n}`,
      object: 'chat.completion',
      created: 1_700_000_000 + n,
      model: String(request['model'] ?? 'unknown'),
      choices: [{ index: 0, message: { role: 'assistant', content, refusal }, logprobs: null, finish_reason: finish }],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
      },
    },
  };
}
