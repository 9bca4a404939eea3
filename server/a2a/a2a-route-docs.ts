import { z } from 'zod';
import { defineRouteDocs } from '../openapi/route-doc.ts';

/** A JSON-RPC 2.0 request of A2A (`SendMessage`, `GetTask`, ... or v0.3's `message/send`, ...). */
const JsonRpcRequestSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number(), z.null()]).optional(),
  method: z.string(),
  params: z.record(z.string(), z.unknown()).optional(),
});

/** The API description of one system's A2A routes, mounted at `path` (`/a2a/<system>`). */
export function a2aRouteDocs(path: string, title: string) {
  return defineRouteDocs([
    {
      method: 'get',
      path: `${path}/.well-known/agent-card.json`,
      summary: `${title}: its A2A agent card`,
      description: 'Name, skills, streaming, the JSON-RPC interface (protocol 1.0 and 0.3) and the bearer-JWT scheme.',
      public: true,
      responses: { 200: { description: 'The agent card (A2A v1.0, protobuf JSON).' } },
    },
    {
      method: 'post',
      path,
      summary: `${title}: A2A JSON-RPC`,
      description:
        '`SendMessage`, `SendStreamingMessage`, `GetTask`, `CancelTask`, `SubscribeToTask` (header `A2A-Version: 1.0`), or `message/send`, `message/stream`, `tasks/get`, `tasks/cancel`, `tasks/resubscribe` (v0.3, no header). Protocol errors are JSON-RPC errors; streaming methods answer `text/event-stream`.',
      body: JsonRpcRequestSchema,
      headers: { 'A2A-Version': '`1.0`, or `0.3` (the default) for v0.3 clients.' },
      responses: { 200: { description: 'A JSON-RPC response, or an SSE stream of them for streaming methods.' } },
    },
  ]);
}
