import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { USER_DATA_DOCUMENT_SCHEMAS } from '../../../../protocol/trainer/user-data-documents.ts';
import { RESEARCH_ROUTE_DOCS } from '../../../../server/coscientist/research-route-docs.ts';
import { PIPELINE_ROUTE_DOCS } from '../../../../server/nutrition/pipeline-route-docs.ts';
import { ORG_ROUTE_DOCS } from '../../../../server/org/org-route-docs.ts';
import { TIERS_ROUTE_DOCS } from '../../../../server/tiers/tiers-route-docs.ts';
import { TRAINER_ROUTE_DOCS } from '../../../../server/trainer/trainer-route-docs.ts';
import { readExample, ROUTE_EXAMPLES } from '../../../support/api/route-examples.ts';

const routes = [
  ...PIPELINE_ROUTE_DOCS,
  ...TRAINER_ROUTE_DOCS,
  ...TIERS_ROUTE_DOCS,
  ...RESEARCH_ROUTE_DOCS,
  ...ORG_ROUTE_DOCS,
];

const routeOf = (method: string, path: string) => routes.find((r) => r.method === method && r.path === path);

function schemaOf(example: (typeof ROUTE_EXAMPLES)[number]): z.ZodType {
  if (example.source) return USER_DATA_DOCUMENT_SCHEMAS[example.source as keyof typeof USER_DATA_DOCUMENT_SCHEMAS];
  const route = routeOf(example.method, example.path);
  if (!route?.body) throw new Error(`${example.file}: no body is described for ${example.method} ${example.path}`);
  return route.body;
}

describe('examples/', () => {
  it.each(ROUTE_EXAMPLES.map((example) => [example.file, example] as const))(
    '%s is a body of its route (valid unless shown refused)',
    (_file, example) => {
      const parsed = schemaOf(example).safeParse(readExample(example.file));
      // A body the README shows refused is refused by its schema too.
      if (example.refused) expect(parsed.success).toBe(false);
      else expect(parsed.error?.issues ?? []).toEqual([]);
    },
  );

  it('holds a ready body for every POST, PUT and PATCH that takes one, and nothing else', () => {
    const withBody = routes.filter((route) => route.body && route.method !== 'get');
    expect(withBody.length).toBeGreaterThan(15);
    for (const route of withBody)
      expect(
        ROUTE_EXAMPLES.some((example) => example.method === route.method && example.path === route.path),
        `${route.method.toUpperCase()} ${route.path} has no example`,
      ).toBe(true);
    const files = readdirSync(new URL('../../../../examples/', import.meta.url)).filter((f) => f.endsWith('.json'));
    expect(files.sort()).toEqual(ROUTE_EXAMPLES.map((example) => example.file).sort());
  });
});
