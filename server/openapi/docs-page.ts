import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Hono } from 'hono';
import { NotFoundError } from '../../protocol/runtime/runtime-error.ts';

/** The renderer's files served under `/docs/assets/`, from the installed `swagger-ui-dist` (no CDN). */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Agent runtime API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>
window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null });
</script>
</body>
</html>`;

/**
 * `GET /docs`: the API description rendered by Swagger UI, its script and stylesheet served from
 * `node_modules`, so the page works offline. Each asset is read once, on first request.
 *
 * @example
 * app.route('/docs', docsPage()); // open http://localhost:3000/docs
 */
export function docsPage() {
  const folder = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const cache = new Map<string, Promise<string>>();
  return new Hono()
    .get('/', (c) => c.html(PAGE))
    .get('/assets/:file', async (c) => {
      const file = c.req.param('file');
      const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
      if (!type) throw new NotFoundError(`Asset ${file} (the docs page serves ${Object.keys(ASSETS).join(', ')})`);
      if (!cache.has(file)) cache.set(file, readFile(join(folder, file), 'utf8'));
      return c.body(await cache.get(file)!, 200, { 'content-type': type, 'cache-control': 'max-age=3600' });
    });
}
