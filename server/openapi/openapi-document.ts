import { z } from 'zod';
import { HttpErrorBodySchema } from '../../protocol/runtime/http-error.ts';
import type { ResponseDoc, RouteDoc } from './route-doc.ts';

/** The routes of one system (or of the runtime), shown together under its tag. */
export interface RouteGroup {
  /** The system's one name (`nutrition`), or `runtime`. */
  tag: string;
  description: string;
  routes: readonly RouteDoc[];
}

type Json = Record<string, unknown>;

const ERROR_MEANINGS: Record<number, string> = {
  400: 'Bad input: `issues` names each field (`path`) and what is wrong with it.',
  401: 'A valid bearer token is required.',
  404: 'No such resource for this user (another user’s answers 404 exactly like a missing one).',
  413: 'The body is over the size limit (1 MiB by default).',
  429: 'This user has too many runs working (`too_many_runs`): retry after `Retry-After` seconds.',
  503: 'The system is at capacity (`overloaded`): retry after `Retry-After` seconds.',
};

/** A zod schema as a JSON Schema 2020-12 object (OpenAPI 3.1's dialect), as a client sends it. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'input'): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as Json;
  return rest;
}

const hono = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function operationId(route: RouteDoc): string {
  const words = route.path
    .split('/')
    .filter(Boolean)
    .map((part) => part.replace(/^:/, 'by_').replace(/[^A-Za-z0-9_]/g, '_'));
  return [route.method, ...words].join('_');
}

function parametersOf(route: RouteDoc): Json[] {
  const names = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]!);
  const parameters: Json[] = names.map((name) => {
    const description = route.params?.[name];
    if (description === undefined)
      throw new Error(`${route.method.toUpperCase()} ${route.path}: describe the path parameter "${name}" in params.`);
    return { name, in: 'path', required: true, description, schema: { type: 'string' } };
  });
  if (route.query) {
    const schema = jsonSchemaOf(route.query);
    const required = new Set((schema.required as string[] | undefined) ?? []);
    for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Json>))
      parameters.push({ name, in: 'query', required: required.has(name), schema: property });
  }
  for (const [name, description] of Object.entries(route.headers ?? {}))
    parameters.push({ name, in: 'header', required: false, description, schema: { type: 'string' } });
  return parameters;
}

function responseOf(response: ResponseDoc): Json {
  if (response.contentType)
    return { description: response.description, content: { [response.contentType]: { schema: { type: 'string' } } } };
  return {
    description: response.description,
    content: { 'application/json': { schema: response.schema ? jsonSchemaOf(response.schema, 'output') : {} } },
  };
}

function errorsOf(route: RouteDoc): Record<number, string> {
  const errors: Record<number, string> = {};
  const add = (status: number) => (errors[status] = ERROR_MEANINGS[status]!);
  if (route.body || route.query || route.params) add(400);
  if (!route.public) add(401);
  if (route.params) add(404);
  if (route.body) add(413);
  if (route.admission) [429, 503].forEach(add);
  return { ...errors, ...route.errors };
}

function operationOf(route: RouteDoc, tag: string): Json {
  const responses: Record<string, Json> = {};
  for (const [status, response] of Object.entries(route.responses)) responses[status] = responseOf(response);
  if (route.sse)
    responses['200'] = {
      description: `Server-Sent Events, one JSON object per \`data:\` line: ${route.sse}`,
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    };
  for (const [status, description] of Object.entries(errorsOf(route))) {
    const retry = status === '429' || status === '503';
    responses[status] = {
      description,
      ...(retry ? { headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } } : {}),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  const operation: Json = { operationId: operationId(route), tags: [tag], summary: route.summary, responses };
  if (route.description) operation.description = route.description;
  const parameters = parametersOf(route);
  if (parameters.length > 0) operation.parameters = parameters;
  if (route.body)
    operation.requestBody = {
      required: !route.bodyOptional,
      content: { 'application/json': { schema: jsonSchemaOf(route.body) } },
    };
  if (route.public) operation.security = [];
  return operation;
}

/**
 * Builds the OpenAPI 3.1 document of the routes given, from their zod schemas (JSON Schema
 * 2020-12 through `z.toJSONSchema`). Two descriptions of one method and path stop the build.
 *
 * @example
 * openApiDocument([{ tag: 'runtime', description: 'Health', routes: HEALTH_ROUTE_DOCS }]);
 */
export function openApiDocument(groups: readonly RouteGroup[], version = '0.1.0') {
  const paths: Record<string, Record<string, Json>> = {};
  for (const group of groups) {
    for (const route of group.routes) {
      const item = (paths[hono(route.path)] ??= {});
      if (item[route.method])
        throw new Error(`${route.method.toUpperCase()} ${route.path} is described twice; keep one description.`);
      item[route.method] = operationOf(route, group.tag);
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Agent runtime',
      version,
      description:
        'Every system of the runtime over HTTP. JSON in and out; every error has one shape; long work streams Server-Sent Events.',
    },
    tags: groups.map(({ tag, description }) => ({ name: tag, description })),
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'HS256, `sub` = the user id; `npm run token -- <userId>` prints one.',
        },
      },
      schemas: { Error: jsonSchemaOf(HttpErrorBodySchema, 'output') },
      headers: {
        RetryAfter: { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } },
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>;
