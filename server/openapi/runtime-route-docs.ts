import { z } from 'zod';
import { defineRouteDocs } from './route-doc.ts';

/** The runtime's own routes (health, token check, the API description and its page). */
export const RUNTIME_ROUTE_DOCS = defineRouteDocs([
  {
    method: 'get',
    path: '/health',
    summary: 'Liveness',
    public: true,
    responses: {
      200: { description: 'The server is up.', schema: z.object({ status: z.literal('ok'), uptime_s: z.number() }) },
    },
  },
  {
    method: 'get',
    path: '/me',
    summary: "The caller's user id (a token check)",
    responses: { 200: { description: 'The user id.', schema: z.object({ user_id: z.string() }) } },
  },
  {
    method: 'get',
    path: '/openapi.json',
    summary: 'This document (OpenAPI 3.1)',
    public: true,
    responses: { 200: { description: 'The API description.' } },
  },
  {
    method: 'get',
    path: '/docs',
    summary: 'The API description rendered (works offline)',
    public: true,
    responses: { 200: { description: 'HTML', contentType: 'text/html' } },
  },
  {
    method: 'get',
    path: '/docs/assets/:file',
    summary: "The docs page's renderer (Swagger UI, from node_modules)",
    public: true,
    params: { file: '`swagger-ui-bundle.js` or `swagger-ui.css`.' },
    responses: { 200: { description: 'The asset.', contentType: 'text/plain' } },
  },
]);
