import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRuntime } from '../../support/runtime-harness.ts';

type Server = Awaited<ReturnType<typeof startRuntime>>;
type Document = { openapi: string; paths: Record<string, Record<string, any>>; tags: { name: string }[] };

/** `GET /pipelines/{id}` from hono's `/pipelines/:id`, so both lists compare. */
const key = (method: string, path: string) =>
  `${method.toUpperCase()} ${path.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/(.)\/$/, '$1')}`;

/** Every method and path the app serves: its handlers, not its middleware (`app.use` is `ALL`). */
function servedRoutes(server: Server): Set<string> {
  return new Set(
    server.runtime.app.routes.filter((route) => route.method !== 'ALL').map((route) => key(route.method, route.path)),
  );
}

function describedRoutes(document: Document): Set<string> {
  return new Set(
    Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => key(method, path))),
  );
}

describe('GET /openapi.json', () => {
  let server: Server;
  let document: Document;

  beforeAll(async () => {
    server = await startRuntime();
    const response = await server.runtime.app.request('/openapi.json');
    expect(response.status).toBe(200);
    document = (await response.json()) as Document;
  });
  afterAll(() => server.stop());

  it('is a valid OpenAPI 3.1 document, served without a token', async () => {
    const validator = new Validator();
    const result = await validator.validate(document as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('describes every route the app serves, and no route it does not serve', () => {
    const served = servedRoutes(server);
    const described = describedRoutes(document);
    expect([...served].filter((route) => !described.has(route)).sort()).toEqual([]);
    expect([...described].filter((route) => !served.has(route)).sort()).toEqual([]);
    // Every system's routes are there, under its own tag.
    const tags = document.tags.map((tag) => tag.name);
    for (const system of ['nutrition', 'trainer', 'tiers', 'coscientist', 'org']) expect(tags).toContain(system);
    for (const tag of tags) {
      const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
      expect(operations.some((operation) => operation.tags.includes(tag))).toBe(true);
    }
  });

  it('gives every operation the one error shape, the bearer scheme, SSE as text/event-stream and Retry-After on 429/503', () => {
    let streams = 0;
    let refusals = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const where = `${method} ${path}`;
        const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
        if (!isPublic) expect(operation.responses['401'], where).toBeDefined();
        for (const [status, response] of Object.entries<any>(operation.responses)) {
          if (Number(status) < 400) continue;
          expect(response.content['application/json'].schema, `${where} ${status}`).toEqual({
            $ref: '#/components/schemas/Error',
          });
          if (status === '429' || status === '503') {
            expect(response.headers['Retry-After'], `${where} ${status}`).toBeDefined();
            refusals++;
          }
        }
        if (operation.responses['200']?.content?.['text/event-stream']) streams++;
        for (const name of path.matchAll(/\{([^}]+)\}/g))
          expect(
            operation.parameters.some((p: any) => p.in === 'path' && p.name === name[1]),
            `${where} ${name[1]}`,
          ).toBe(true);
      }
    }
    // The SSE routes: pipeline, trainer stream, tiers task, research goal, org project, a live viz run.
    expect(streams).toBe(6);
    expect(refusals).toBeGreaterThanOrEqual(2 * 5);
    expect((document as any).components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect((document as any).security).toEqual([{ bearer: [] }]);
  });

  it('describes a request body with its zod schema (required fields, strictness)', () => {
    const intake = document.paths['/pipelines']!.post.requestBody.content['application/json'].schema;
    expect(intake.type).toBe('object');
    expect(intake.required).toEqual(expect.arrayContaining(['age']));
    const task = document.paths['/tiers/tasks']!.post.requestBody.content['application/json'].schema;
    expect(task.additionalProperties).toBe(false);
    expect(task.required).toEqual(expect.arrayContaining(['objective', 'problem']));
  });
});
