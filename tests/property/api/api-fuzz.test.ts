import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpErrorBodySchema } from '../../../protocol/runtime/http-error.ts';
import { RUNTIME_ROUTE_DOCS } from '../../../server/openapi/runtime-route-docs.ts';
import type { RouteDoc } from '../../../server/openapi/route-doc.ts';
import { loadSystemModules } from '../../../server/system-modules.ts';
import { VIZ_ROUTE_DOCS } from '../../../server/viz/viz-route-docs.ts';
import { generatedBodies, mutatedBodies, rawBodies, type FuzzBody } from '../../support/api/body-mutations.ts';
import { authChoices, oddHeaders, pathParams, queryStrings, type AuthChoice } from '../../support/api/odd-requests.ts';
import { readExample, ROUTE_EXAMPLES } from '../../support/api/route-examples.ts';
import { startRuntime } from '../../support/runtime-harness.ts';

/** Bodies per route that takes one (the issue asks >= 1,000), and requests per route that takes none. */
const BODY_RUNS = Number(process.env.API_FUZZ_RUNS ?? 1_000);
const OTHER_RUNS = Math.ceil(BODY_RUNS / 10);
// A failure's `seed` (and `path`) replay it: API_FUZZ_SEED=... API_FUZZ_PATH=... npx vitest run <this file> -t '<route>'.

const modules = await loadSystemModules();
const ROUTES: readonly RouteDoc[] = [
  ...RUNTIME_ROUTE_DOCS,
  ...modules.flatMap((module) => module.routeDocs ?? []),
  ...VIZ_ROUTE_DOCS,
];
const takesBody = (route: RouteDoc) => route.method !== 'get';

type Server = Awaited<ReturnType<typeof startRuntime>>;
let server: Server;
/** Ids that exist, by path parameter name: the keeper's (another user's: 404) and the fuzzer's own. */
const known: Record<string, string[]> = {
  source: ['profile', 'user_profile', 'locations', 'all_locations', 'workout_history', 'exercise_distribution'],
  machine: ['pipeline.json', 'agentLoop.mmd', 'nope'],
  file: ['swagger-ui.css', 'viz.css', 'viz.js'],
};
/** What the keeper made before the storm, read back: it must read the same after. */
let keeperPaths: string[] = [];
const before = new Map<string, unknown>();
const sent = new Map<string, number>();

async function settle(user: string, path: string) {
  const response = await server.runtime.app.request(`${path}?until=settled`, {
    headers: { authorization: `Bearer ${await server.token(user)}` },
  });
  expect(response.status, path).toBe(200);
  await response.text();
}

/** One of each resource, as `user`; returns the ids and the paths that read them. */
async function makeData(user: string) {
  const post = async (path: string, file: string, patch: object = {}) => {
    const body = { ...(readExample(file) as object), ...patch };
    const { status, body: answer } = await server.call(user, 'POST', path, body);
    expect(status, `${user} POST ${path}: ${JSON.stringify(answer)}`).toBeLessThan(300);
    return answer;
  };
  const pipeline = (await post('/pipelines', 'nutrition-intake.json')).pipeline_run_id as string;
  await settle(user, `/pipelines/${pipeline}/events`);
  await server.call(user, 'PUT', '/users/me/profile', readExample('trainer-profile.json'));
  const session = (await post('/agent/sessions', 'trainer-session.json')).session.id as string;
  const task = (await post('/tiers/tasks', 'tiers-task.json')).task_id as string;
  await settle(user, `/tiers/tasks/${task}/events`);
  const research = (await post('/research', 'coscientist-goal.json', { iterations: 1, hypotheses_per_iteration: 1 }))
    .research_id as string;
  await settle(user, `/research/${research}/events`);
  const project = (await post('/org/projects', 'org-project.json')).id as string;
  const ids = [pipeline, session, task, research, project];
  const paths = [
    `/pipelines/${pipeline}`,
    `/pipelines/${pipeline}/messages`,
    '/users/me',
    `/agent/sessions/${session}/events`,
    `/tiers/tasks/${task}`,
    `/tiers/tasks/${task}/messages`,
    `/research/${research}/hypotheses`,
    `/research/${research}/memory`,
    `/org/projects/${project}/messages`,
  ];
  return { ids, paths };
}

async function readAll(user: string, paths: readonly string[]) {
  const answers = new Map<string, unknown>();
  for (const path of paths) answers.set(path, (await server.call(user, 'GET', path)).body);
  return answers;
}

function authorization(choice: AuthChoice, token: string): Record<string, string> {
  if (choice === 'token') return { authorization: `Bearer ${token}` };
  if (choice === 'garbage') return { authorization: 'Bearer not.a.jwt' };
  if (choice === 'basic') return { authorization: 'Basic Zm9vOmJhcg==' };
  if (choice === 'empty_bearer') return { authorization: 'Bearer ' };
  return {};
}

function bodiesFor(route: RouteDoc): fc.Arbitrary<FuzzBody> {
  const examples = ROUTE_EXAMPLES.filter((e) => e.method === route.method && e.path === route.path && !e.refused);
  // The examples as they are: valid bodies, rare, and small (one research iteration, one hypothesis).
  const small = (value: unknown) =>
    route.path === '/research' ? { ...(value as object), iterations: 1, hypotheses_per_iteration: 1 } : value;
  const valid = examples.map((example) =>
    fc.constant<FuzzBody>({ value: small(readExample(example.file)), field: '', kind: 'valid' }),
  );
  return fc.oneof(
    ...(examples.length > 0
      ? [{ weight: 120, arbitrary: fc.oneof(...examples.map((example) => mutatedBodies(readExample(example.file)))) }]
      : []),
    { weight: 30, arbitrary: generatedBodies },
    { weight: 20, arbitrary: rawBodies },
    ...(valid.length > 0 ? [{ weight: 1, arbitrary: fc.oneof(...valid) }] : []),
  );
}

/**
 * Does an issue name the mutated field: the field itself, the object that holds it (an unknown or
 * missing key), a sibling (a rule across two fields, like waist_cm with hip_cm), or a path
 * parameter checked before the body?
 */
function names(issuePath: string, field: string, params: readonly string[]): boolean {
  if (params.includes(issuePath)) return true;
  const a = issuePath === '' ? [] : issuePath.split('.');
  const b = field === '' ? [] : field.split('.');
  const n = Math.min(a.length, b.length);
  if (a.slice(0, n).join('.') === b.slice(0, n).join('.')) return true;
  return a.length === b.length && a.slice(0, -1).join('.') === b.slice(0, -1).join('.');
}

async function check(route: RouteDoc, path: string, init: RequestInit, body: FuzzBody | undefined) {
  const params = Object.keys(route.params ?? {});
  if (process.env.API_FUZZ_DEBUG) console.log('REQ', init.method, path, String(init.body).slice(0, 200));
  const response = await server.runtime.app.request(path, init);
  const where = `${init.method} ${path} ${JSON.stringify(body ?? null).slice(0, 300)}`;
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('text/event-stream')) {
    await response.body?.cancel();
    expect(response.status, where).toBe(200);
    return;
  }
  const text = await response.text();
  expect(response.status, `${where} -> ${text.slice(0, 300)}`).toBeLessThan(500);
  if (response.status < 400) return;
  const parsed = HttpErrorBodySchema.safeParse(JSON.parse(text));
  expect(parsed.success, `${where} -> ${text.slice(0, 300)}`).toBe(true);
  const error = parsed.data!.error;
  if (response.status === 400 && body && error.code === 'validation_failed') {
    expect(error.issues?.length, `${where} -> ${text.slice(0, 300)}`).toBeGreaterThan(0);
    if (body.kind === 'mutated')
      expect(
        error.issues!.some((issue) => names(issue.path, body.field!, params)),
        `${where} -> ${text.slice(0, 300)}`,
      ).toBe(true);
  }
  if (response.status === 429 || response.status === 503)
    expect(response.headers.get('retry-after'), where).toMatch(/^\d+$/);
}

describe('the API under a storm of odd requests', () => {
  beforeAll(async () => {
    server = await startRuntime({ modules, systems: { coscientist: { onError: () => {} } } }, undefined, {
      admission: { maxWorking: 4, maxPerOwner: 2 },
    });
    const keeper = await makeData('keeper');
    const own = await makeData('fuzzer');
    known.id = [...keeper.ids, ...own.ids];
    known.runId = known.id;
    keeperPaths = keeper.paths;
    for (const [path, answer] of await readAll('keeper', keeperPaths)) before.set(path, answer);
  }, 120_000);
  afterAll(() => server?.stop());

  it.each(ROUTES.map((route) => [`${route.method.toUpperCase()} ${route.path}`, route] as const))(
    '%s: no 5xx, every 4xx in the one error shape naming the field',
    async (name, route) => {
      const token = await server.token('fuzzer');
      const names_ = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
      const queryKeys = route.query ? Object.keys((route.query as any).shape ?? {}) : [];
      const request = fc.record({
        params: fc.tuple(...names_.map((param) => pathParams(known[param] ?? [])), fc.constant('')),
        query: route.method === 'get' ? queryStrings(queryKeys) : fc.constant(''),
        auth: authChoices,
        headers: oddHeaders,
        body: takesBody(route) ? bodiesFor(route) : fc.constant(undefined),
      });
      await fc.assert(
        fc.asyncProperty(request, async ({ params, query, auth, headers, body }) => {
          let i = 0;
          const path = route.path.replace(/:([A-Za-z0-9_]+)/g, () => params[i++] || 'x') + query;
          const init: RequestInit = {
            method: route.method.toUpperCase(),
            headers: { ...headers, ...authorization(auth, token) },
          };
          if (body && takesBody(route)) {
            init.body = body.raw ?? (body.value === undefined ? '' : JSON.stringify(body.value));
            sent.set(name, (sent.get(name) ?? 0) + 1);
          }
          await check(route, path, init, body);
        }),
        {
          numRuns: takesBody(route) ? BODY_RUNS : OTHER_RUNS,
          endOnFailure: true,
          ...(process.env.API_FUZZ_SEED
            ? { seed: Number(process.env.API_FUZZ_SEED), path: process.env.API_FUZZ_PATH }
            : {}),
        },
      );
    },
    180_000,
  );

  it('sent at least 1,000 bodies to every route that takes one', () => {
    const withBody = ROUTES.filter(takesBody).map((route) => `${route.method.toUpperCase()} ${route.path}`);
    expect(withBody.length).toBeGreaterThan(15);
    for (const name of withBody) expect(sent.get(name) ?? 0, name).toBeGreaterThanOrEqual(BODY_RUNS);
  });

  it('leaves what was made before the storm unchanged', async () => {
    const after = await readAll('keeper', keeperPaths);
    for (const path of keeperPaths) expect(after.get(path), path).toEqual(before.get(path));
  });
});
