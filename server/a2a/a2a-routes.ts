import { A2A_VERSION_HEADER, AgentCard, Extensions, HTTP_EXTENSION_HEADER } from '@a2a-js/sdk';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import {
  defaultServerCallContextBuilder,
  JsonRpcTransportHandler,
  validateVersion,
  type A2ARequestHandler,
} from '@a2a-js/sdk/server';
import { Hono, type Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { userIdOf } from '../auth.ts';
import { tieSignal } from './call-signal.ts';

/** The protocol version a request without `A2A-Version` speaks (the SDK's rule). */
const LEGACY_VERSION = '0.3';

function rpcError(id: unknown, error: { code: number; message: string }) {
  return { jsonrpc: '2.0', id: id ?? null, error };
}

/**
 * A system's A2A routes: its agent card (public, as the protocol expects: `GET /` under
 * `/.well-known/agent-card.json`, its interface URL made from the request's origin) and its
 * JSON-RPC endpoint (`POST /`, behind bearer auth), which hands each call to the SDK's own
 * transport handlers (v1.0, and v0.3 when `A2A-Version` is absent or `0.3`) and streams SSE.
 *
 * @example
 * const { card, rpc } = a2aRoutes({ handler, cardAt: (url) => agentCardOf({ ...options, url }), path: '/a2a/nutrition' });
 */
export function a2aRoutes(options: {
  handler: A2ARequestHandler;
  /** The card, for the interface URL `url`. */
  cardAt: (url: string) => AgentCard;
  /** Where the JSON-RPC endpoint is mounted (`/a2a/<system>`). */
  path: string;
}) {
  const v1 = new JsonRpcTransportHandler(options.handler);
  const legacy = new LegacyJsonRpcTransportHandler(options.handler);
  const card = new Hono().get('/', (c) => {
    const body = AgentCard.toJSON(options.cardAt(new URL(options.path, c.req.url).href));
    c.header('Cache-Control', 'no-cache');
    return c.json(body as Record<string, unknown>);
  });
  const rpc = new Hono().post('/', async (c) => {
    const version = c.req.header(A2A_VERSION_HEADER);
    const useLegacy = (version ?? LEGACY_VERSION) === LEGACY_VERSION;
    const mapError = useLegacy
      ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError
      : JsonRpcTransportHandler.mapToJSONRPCError;
    let body: Record<string, unknown>;
    try {
      body = (await c.req.json()) as Record<string, unknown>;
    } catch {
      return c.json(rpcError(null, { code: A2A_ERROR_CODE.PARSE_ERROR, message: 'Invalid JSON payload.' }));
    }
    try {
      const context = callContextOf(c, version);
      const gone = new AbortController();
      tieSignal(context, gone.signal);
      validateVersion(context.requestedVersion, await options.handler.getAgentCard(), 'JSONRPC');
      const result = await (useLegacy ? legacy : v1).handle(body, context);
      if (!isStream(result)) return c.json(result as object);
      return streamSSE(c, async (stream) => {
        // A stream waiting on a run lets go of it when the client leaves (see followTask).
        stream.onAbort(() => gone.abort());
        try {
          for await (const event of result) await stream.writeSSE({ data: JSON.stringify(event) });
        } catch (error) {
          await stream.writeSSE({ event: 'error', data: JSON.stringify(rpcError(body.id, mapError(error))) });
        }
      });
    } catch (error) {
      return c.json(rpcError(body.id, mapError(error)));
    }
  });
  return { card, rpc };
}

function callContextOf(c: Context, version: string | undefined) {
  const user = { isAuthenticated: true, userName: userIdOf(c) };
  const headers = Object.fromEntries(c.req.raw.headers);
  return defaultServerCallContextBuilder({
    extensions: Extensions.parseServiceParameter(c.req.header(HTTP_EXTENSION_HEADER)),
    user,
    headers,
    requestedVersion: version,
  });
}

function isStream(value: unknown): value is AsyncGenerator<unknown> {
  return typeof (value as { [Symbol.asyncIterator]?: unknown } | undefined)?.[Symbol.asyncIterator] === 'function';
}
