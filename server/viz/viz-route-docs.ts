import { z } from 'zod';
import { defineRouteDocs } from '../openapi/route-doc.ts';

const machine = {
  machine: 'A machine name (`GET /viz/machines.json` lists them), or `<name>.json|.mmd|.svg` for an export.',
};

/** The visualizer's routes (`/viz`, no token but for live runs) as the API description shows them. */
export const VIZ_ROUTE_DOCS = defineRouteDocs([
  {
    method: 'get',
    path: '/viz',
    summary: 'The list of machines (a page)',
    public: true,
    responses: { 200: { description: 'HTML', contentType: 'text/html' } },
  },
  {
    method: 'get',
    path: '/viz/machines.json',
    summary: 'Every machine with its exports',
    public: true,
    responses: { 200: { description: '`{ machines: [{ name, title, summary, source, json, mermaid, svg, page }] }`' } },
  },
  {
    method: 'get',
    path: '/viz/assets/:file',
    summary: "The visualizer's scripts and styles",
    public: true,
    params: { file: 'An asset file name.' },
    responses: { 200: { description: 'The asset.', contentType: 'text/plain' } },
  },
  {
    method: 'get',
    path: '/viz/:machine',
    summary: "A machine's page, or one of its exports",
    description: 'With `?run=<id>` and a token (header or `?token=`), the page follows that run live.',
    public: true,
    params: machine,
    query: z.object({ run: z.string().optional(), token: z.string().optional() }),
    responses: { 200: { description: 'HTML, or the JSON, Mermaid or SVG export.', contentType: 'text/html' } },
  },
  {
    method: 'get',
    path: '/viz/:machine/runs',
    summary: "The caller's runs of a machine",
    description: 'The caller only: `?token=<JWT>` or the cookie the page set.',
    public: true,
    params: machine,
    query: z.object({ token: z.string().optional() }),
    responses: { 200: { description: '`{ machine, runs }`' } },
    errors: { 401: 'A token is needed to list runs.' },
  },
  {
    method: 'get',
    path: '/viz/:machine/runs/:runId/events',
    summary: "A live run's transitions",
    description: "The run's owner only: `?token=<JWT>` or the cookie the page set (EventSource sends no header).",
    public: true,
    params: { ...machine, runId: 'The run id (a pipeline run, a session id...).' },
    query: z.object({ token: z.string().optional() }),
    sse: '`snapshot` (active states), `history` (recent transitions), then `transition` per change.',
    responses: {},
    errors: { 401: 'A token is needed to watch a live run.' },
  },
]);
