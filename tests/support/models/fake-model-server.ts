import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createPromptCacheSimulator,
  type CacheablePrompt,
  type PromptCacheUsage,
} from '../../../actors/models/prompt-cache-simulator.ts';
import { checkAnthropicRequest, checkOpenAiRequest, type RuleViolation } from './fake-model-server-checks.ts';
import {
  anthropicResponse,
  openAiResponse,
  type AnthropicReply,
  type OpenAiReply,
  type WireResponse,
} from './fake-model-server-replies.ts';

export type { AnthropicReply, OpenAiReply } from './fake-model-server-replies.ts';
export type { RuleViolation, ViolationRule } from './fake-model-server-checks.ts';

type Json = Record<string, unknown>;

/** Replies in order, or a function of the request and its index on that endpoint. */
export type Script<Reply> = Reply[] | ((body: Json, index: number) => Reply | Promise<Reply>);

export type Endpoint = 'anthropic' | 'openai' | 'unknown';

/** One request as the server received it. */
export interface RecordedRequest {
  endpoint: Endpoint;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  /** The client's port: which process asked (`tests/support/restate/socket-owner.ts`). */
  remotePort?: number | undefined;
  /** The cache usage reported (Messages requests). */
  usage?: PromptCacheUsage;
}

/** A broken rule, with the index of the request in `requests`. */
export interface Violation extends RuleViolation {
  request: number;
  endpoint: Endpoint;
}

/** The rules a Messages request is checked against (the trainer's by default). */
export type AnthropicRules = (body: unknown, headers: Record<string, string | string[] | undefined>) => RuleViolation[];

export interface FakeModelServerOptions {
  anthropic?: Script<AnthropicReply>;
  openai?: Script<OpenAiReply>;
  /** Other callers' rules for Messages requests (tiers' forced single tool); default `checkAnthropicRequest`. */
  anthropicRules?: AnthropicRules;
}

export interface FakeModelServer {
  /** `http://127.0.0.1:<port>`: the Anthropic SDK's baseURL; add `/v1` for the OpenAI SDK. */
  url: string;
  requests: RecordedRequest[];
  violations: Violation[];
  /** Adds replies to the endpoint's queue (when it was scripted with a list). */
  enqueue(endpoint: 'anthropic', ...replies: AnthropicReply[]): void;
  enqueue(endpoint: 'openai', ...replies: OpenAiReply[]): void;
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function send(response: ServerResponse, wire: WireResponse): void {
  response.writeHead(wire.status, { 'content-type': 'application/json', ...wire.headers });
  response.end(JSON.stringify(wire.body));
}

/** A 400 rather than a 5xx, so the SDKs do not retry what no script answers. */
const refusal = (message: string): WireResponse => ({
  status: 400,
  body: { type: 'error', error: { type: 'invalid_request_error', message } },
});

/**
 * A local model API for tests (no network): it speaks the wire formats of Anthropic Messages
 * (`POST /v1/messages`) and OpenAI Chat Completions (`POST /v1/chat/completions`), plays scripted
 * replies, and checks every request against the agent's rules (forced tool use, 8192 tokens,
 * the four cache breakpoints of §4.2 and no others, tool_use/tool_result pairing; a strict JSON
 * Schema for the initializer), recording each broken rule in `violations`. Messages usage comes
 * from a prompt cache simulation: the longest prefix an earlier request wrote is reported as
 * `cache_read_input_tokens`, the rest up to the last breakpoint as `cache_creation_input_tokens`.
 *
 * @example
 * const server = await startFakeModelServer({ anthropic: [{ toolUse: { name: 'idle', input: { reason: 'done' } } }] });
 * const client = new Anthropic({ apiKey: 'test', baseURL: server.url });
 */
export async function startFakeModelServer(options: FakeModelServerOptions = {}): Promise<FakeModelServer> {
  const requests: RecordedRequest[] = [];
  const violations: Violation[] = [];
  const cache = createPromptCacheSimulator();
  const queues = {
    anthropic: typeof options.anthropic === 'function' ? undefined : [...(options.anthropic ?? [])],
    openai: typeof options.openai === 'function' ? undefined : [...(options.openai ?? [])],
  };
  const counts = { anthropic: 0, openai: 0 };

  async function next<Reply>(endpoint: 'anthropic' | 'openai', script: Script<Reply> | undefined, body: Json) {
    const index = counts[endpoint]++;
    if (typeof script === 'function') return script(body, index);
    return (queues[endpoint] as Reply[] | undefined)?.shift();
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '').split('?')[0] ?? '';
    const endpoint: Endpoint =
      request.method === 'POST' && path === '/v1/messages'
        ? 'anthropic'
        : request.method === 'POST' && path === '/v1/chat/completions'
          ? 'openai'
          : 'unknown';
    const text = await readBody(request);
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = text;
    }
    const recorded: RecordedRequest = {
      endpoint,
      method: request.method ?? '',
      path,
      headers: request.headers,
      body,
      remotePort: request.socket.remotePort,
    };
    const index = requests.push(recorded) - 1;
    const flag = (found: RuleViolation[]) => violations.push(...found.map((v) => ({ ...v, request: index, endpoint })));
    if (endpoint === 'unknown') {
      flag([
        { rule: 'unexpected_endpoint', message: `${request.method} ${path} is not an endpoint the agent should call` },
      ]);
      return send(response, {
        status: 404,
        body: { type: 'error', error: { type: 'not_found_error', message: `No route ${path}` } },
      });
    }
    const checks =
      endpoint === 'anthropic'
        ? (options.anthropicRules ?? checkAnthropicRequest)(body, request.headers)
        : checkOpenAiRequest(body, request.headers);
    flag(checks);
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return send(response, refusal('The body must be a JSON object.'));
    const json = body as Json;
    if (endpoint === 'anthropic') {
      const usage = cache.usageFor(json as unknown as CacheablePrompt);
      recorded.usage = usage;
      const reply = await next('anthropic', options.anthropic, json);
      if (!reply) {
        flag([{ rule: 'unscripted_request', message: 'no scripted Messages reply left' }]);
        return send(response, refusal('The fake model server has no scripted reply for this request.'));
      }
      return send(response, anthropicResponse(reply, json, index + 1, usage));
    }
    const reply = await next('openai', options.openai, json);
    if (!reply) {
      flag([{ rule: 'unscripted_request', message: 'no scripted Chat Completions reply left' }]);
      return send(response, {
        status: 400,
        body: { error: { message: 'No scripted reply.', type: 'invalid_request_error', param: null, code: null } },
      });
    }
    return send(response, openAiResponse(reply, json, index + 1));
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      send(response, {
        status: 400,
        body: { type: 'error', error: { type: 'invalid_request_error', message: String(error) } },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    violations,
    enqueue(endpoint: 'anthropic' | 'openai', ...replies: (AnthropicReply | OpenAiReply)[]) {
      const queue = queues[endpoint] as unknown[] | undefined;
      if (!queue) throw new Error(`The ${endpoint} endpoint was scripted with a function; it has no queue.`);
      queue.push(...replies);
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
