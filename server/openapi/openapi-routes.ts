import { Hono } from 'hono';
import { docsPage } from './docs-page.ts';
import { openApiDocument, type RouteGroup } from './openapi-document.ts';

/**
 * The public routes of the API description: `GET /openapi.json` (built once, on first request,
 * from every group's route descriptions) and the `/docs` page that renders it.
 *
 * @example
 * createApp({ ..., publicRoutes: { ...apiDescriptionRoutes(groups) } });
 */
export function apiDescriptionRoutes(groups: readonly RouteGroup[]): Record<string, Hono> {
  let document: ReturnType<typeof openApiDocument> | undefined;
  return {
    '/openapi.json': new Hono().get('/', (c) => c.json((document ??= openApiDocument(groups)))),
    '/docs': docsPage(),
  };
}
