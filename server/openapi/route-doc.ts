import type { z } from 'zod';

/** An HTTP method a route answers, as OpenAPI names it. */
export type RouteMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** One answer a route gives: what it means, and its JSON body's schema when it has one. */
export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
  /** Another media type than JSON (`text/html`, `image/svg+xml`); the body is then a string. */
  contentType?: string;
}

/**
 * One route as the API description shows it, declared next to the route itself. The builder adds
 * what every route shares: the one error shape for 400 (a body, a query or a path parameter),
 * 401 (unless `public`), 404 (a path parameter), 413 (a body), and 429/503 with `Retry-After`
 * (`admission`).
 *
 * @example
 * const doc: RouteDoc = { method: 'post', path: '/research/:id/guidance', summary: 'Steer a goal',
 *   body: GuidanceBodySchema, responses: { 202: { description: 'Guidance recorded' } } };
 */
export interface RouteDoc {
  method: RouteMethod;
  /** The full path as hono writes it (`/pipelines/:id/events`): mount path and route path. */
  path: string;
  summary: string;
  description?: string;
  /** Path parameters by name: what each one names. Every `:name` of `path` must be here. */
  params?: Readonly<Record<string, string>>;
  /** The query string's schema (an object of optional strings, as `readQuery` reads it). */
  query?: z.ZodType;
  /** The JSON body's schema; `bodyOptional` when no body (or an empty one) is accepted too. */
  body?: z.ZodType;
  bodyOptional?: boolean;
  /** The answers a caller can act on, by status; errors of the one shape are added by the builder. */
  responses: Readonly<Record<number, ResponseDoc>>;
  /** A Server-Sent Events stream answers 200: what its events are. */
  sse?: string;
  /** Further statuses of the one error shape this route answers (409, 422, 502...), with their meaning. */
  errors?: Readonly<Record<number, string>>;
  /** No bearer token needed. */
  public?: boolean;
  /** The route starts work: refused with 429/503 and `Retry-After` when over capacity. */
  admission?: boolean;
  /** Extra request headers the route reads. */
  headers?: Readonly<Record<string, string>>;
}

/** Types a list of route descriptions (an identity function, so a file reads as a declaration). */
export function defineRouteDocs(docs: readonly RouteDoc[]): readonly RouteDoc[] {
  return docs;
}
